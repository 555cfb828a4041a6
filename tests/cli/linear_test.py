#!/usr/bin/python3
"""booster=gblinear through the `treering` command against Debian's `xgboost` CLI (1.7.4) and
python3-xgboost:

* both CLIs train the same gblinear models (shotgun cyclic, coord_descent thrifty and greedy,
  nthread=1) with the same metric lines; the weights agree to 1e-5, each program predicts
  with the other's model file (task=pred) and dumps it (task=dump) as XGBoost does, the
  booster taken from model_in as XGBoost's CLI takes it;
* two workers under treering-submit --cluster local train the one-process model (1e-6);
* a bad gblinear key in a config file is one line naming the file, line and key (exit 2), as is
  a damaged model_in with more features than weights can be made for."""
import json
import os
import shutil

import cli_testlib as t

CONFIGS = {
    "shotgun": ["updater=shotgun", "feature_selector=cyclic"],
    "thrifty": ["updater=coord_descent", "feature_selector=thrifty", "top_k=4"],
    "greedy": ["updater=coord_descent", "feature_selector=greedy", "lambda=0.5", "alpha=0.01"],
}


def make_data(d, rows=400, seed=7):
    import numpy as np
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(rows, 6))
    x[rng.random(x.shape) < 0.1] = np.nan
    z = np.nan_to_num(x[:, 0]) - 0.5 * np.nan_to_num(x[:, 1]) + 0.3 * np.nan_to_num(x[:, 4])
    y = (z + 0.3 * rng.normal(size=rows) > 0).astype(float)
    paths = [os.path.join(d, p) for p in ("train.libsvm", "test.libsvm")]
    t.write_libsvm(paths[0], x[:300], y[:300])
    t.write_libsvm(paths[1], x[300:], y[300:])
    return paths


def weights(path):
    import xgboost as xgb
    doc = json.loads(xgb.Booster(model_file=path).save_raw("json"))
    return doc["learner"]["gradient_booster"]["model"]["weights"]


def close(a, b, tol, what):
    assert len(a) == len(b), "%s: %d vs %d values" % (what, len(a), len(b))
    worst = max(abs(x - y) for x, y in zip(a, b))
    assert worst <= tol, "%s: max difference %g > %g" % (what, worst, tol)


def test_models_predictions_and_dumps_equal_xgboost_cli():
    if shutil.which("xgboost") is None:
        t.skip("the xgboost CLI (Debian package xgboost) is not installed")
    with t.TempDir() as d:
        train, test = make_data(d)
        for name, keys in CONFIGS.items():
            common = ["/dev/null", "data=%s?format=libsvm" % train,
                      "eval[test]=%s?format=libsvm" % test, "booster=gblinear",
                      "objective=binary:logistic", "num_round=5", "nthread=1"] + keys
            theirs, ours = os.path.join(d, name + ".model"), os.path.join(d, name + ".json")
            p1 = t.run(["xgboost"] + common + ["model_out=" + theirs], cwd=d)
            p2 = t.run([t.treering_bin()] + common + ["model_out=" + ours], cwd=d)
            lines = [[l for l in (p.stdout + p.stderr).splitlines() if l.startswith("[")]
                     for p in (p1, p2)]
            assert len(lines[0]) == len(lines[1]) == 5, lines
            for a, b in zip(*lines):  # "[i]\ttest-logloss:0.61234"
                close([float(a.split(":")[-1])], [float(b.split(":")[-1])], 1e-5, name)
            close(weights(ours), weights(theirs), 1e-5, name + " weights")
            preds = {}
            for program in ("xgboost", t.treering_bin()):
                for model in (ours, theirs):
                    out = os.path.join(d, "pred.txt")
                    t.run([program, "/dev/null", "task=pred",
                           "model_in=" + model, "test:data=%s?format=libsvm" % test,
                           "name_pred=" + out], cwd=d)
                    preds[(program, model)] = t.read_values(out)
            for key, values in preds.items():
                close(values, preds[("xgboost", theirs)], 1e-5, "%s pred %s" % (name, key))
            dump = {}
            for program in ("xgboost", t.treering_bin()):
                out = os.path.join(d, "dump.txt")
                t.run([program, "/dev/null", "task=dump",
                       "model_in=" + theirs, "name_dump=" + out], cwd=d)
                with open(out) as f:
                    dump[program] = f.read()
            assert dump["xgboost"] == dump[t.treering_bin()], dump


def test_two_workers_train_the_one_process_model():
    submit = os.path.join(os.path.dirname(t.treering_bin()), "treering-submit")
    if not os.path.exists(submit):
        t.skip("treering-submit is not built")
    with t.TempDir() as d:
        train, _ = make_data(d)
        keys = ["data=" + train, "booster=gblinear", "objective=binary:logistic",
                "num_round=4", "nthread=1", "updater=coord_descent",
                "feature_selector=thrifty"]
        dist, single = os.path.join(d, "dist.json"), os.path.join(d, "single.json")
        t.run([submit, "--cluster", "local", "--num-workers", "2", "--", t.treering_bin(),
               "/dev/null", "model_out=" + dist] + keys, cwd=d)
        t.run([t.treering_bin(), "/dev/null", "model_out=" + single] + keys, cwd=d)
        close(weights(dist), weights(single), 1e-6, "2 workers vs 1")


def test_tree_keys_warn_and_train_as_xgboost_does():
    # XGBoost's CLI trains gblinear with max_depth set and warns that it are not used.
    with t.TempDir() as d:
        train, _ = make_data(d)
        keys = ["booster=gblinear", "data=" + train, "num_round=2", "updater=coord_descent"]
        plain = os.path.join(d, "plain.json")
        extra = os.path.join(d, "extra.json")
        t.run([t.treering_bin(), "/dev/null", "model_out=" + plain] + keys, cwd=d)
        proc = t.run([t.treering_bin(), "/dev/null", "model_out=" + extra, "max_depth=4",
                      "eta=0.5"] + keys[:1] + ["eta=0.3"] + keys[1:], cwd=d)
        assert '{ "max_depth" } are not used' in proc.stderr, proc.stderr
        assert weights(extra) == weights(plain)
        proc = t.run([t.treering_bin(), "/dev/null", "max_dpth=4"] + keys, cwd=d, check=False)
        assert proc.returncode == 2 and "unknown key 'max_dpth'" in proc.stderr, proc.stderr


def test_bad_key_names_file_line_and_key():
    with t.TempDir() as d:
        train, _ = make_data(d)
        conf = os.path.join(d, "linear.conf")
        with open(conf, "w") as f:
            f.write("booster = gblinear\ndata = %s\nnum_round = 1\nfeature_selector = best\n" %
                    train)
        proc = t.run([t.treering_bin(), conf], cwd=d, check=False)
        said = [l for l in (proc.stdout + proc.stderr).splitlines() if l.strip()]
        assert proc.returncode == 2 and len(said) == 1, (proc.returncode, said)
        assert "linear.conf" in said[0] and ":4" in said[0] and "feature_selector" in said[0], said
        # A damaged gblinear model_in claiming 4e9 features: one line, not an allocation.
        model = os.path.join(d, "huge.json")
        with open(model, "w") as f:
            json.dump({"learner": {
                "attributes": {}, "feature_names": [], "feature_types": [],
                "gradient_booster": {"model": {"boosted_rounds": 1, "weights": []},
                                     "name": "gblinear"},
                "learner_model_param": {"base_score": "5E-1", "boost_from_average": "1",
                                        "num_class": "0", "num_feature": "4000000000",
                                        "num_target": "1"},
                "objective": {"name": "reg:squarederror",
                              "reg_loss_param": {"scale_pos_weight": "1"}}},
                "version": [1, 7, 4]}, f)
        proc = t.run([t.treering_bin(), "/dev/null", "data=" + train, "num_round=1",
                      "model_in=" + model, "model_out=" + os.path.join(d, "o.json")],
                     cwd=d, check=False)
        said = [l for l in (proc.stdout + proc.stderr).splitlines() if l.strip()]
        assert proc.returncode == 2 and len(said) == 1 and "features" in said[0], said


if __name__ == "__main__":
    t.need_xgboost_python()
    t.main([test_models_predictions_and_dumps_equal_xgboost_cli,
            test_two_workers_train_the_one_process_model, test_bad_key_names_file_line_and_key])
