#!/usr/bin/python3
"""Interoperability with python3-xgboost 1.7, both ways, on small generated data (binary,
multi-class, regression; 15% missing values): XGBoost loads treering's JSON and predicts
what treering predicts; treering predicts what XGBoost predicts with XGBoost's own model."""
import os

import cli_testlib as t

CASES = {  # name: (objective, extra learner keys)
    "binary": ("binary:logistic", ["eval_metric=auc"]),
    "softprob": ("multi:softprob", ["num_class=3"]),
    "softmax": ("multi:softmax", ["num_class=3"]),
    "regression": ("reg:squarederror", []),
    # issue 17 item 2: the objectives with their own parameter blocks (pseudo_huber_param,
    # tweedie_regression_param) and those XGBoost saves with only their name
    "pseudohuber": ("reg:pseudohubererror", ["huber_slope=2"]),
    "tweedie": ("reg:tweedie", ["tweedie_variance_power=1.3"]),
    "gamma": ("reg:gamma", []),
    "squaredlogerror": ("reg:squaredlogerror", []),
    "hinge": ("binary:hinge", []),
    "cox": ("survival:cox", []),
}


def make_data(d, name, rows=600, features=6, seed=3):
    """train/test LibSVM files for a case; labels depend on features 0-2, NaN = missing."""
    import numpy as np
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(rows, features))
    x[rng.random(size=x.shape) < 0.15] = np.nan
    z = np.nan_to_num(x[:, 0]) + 0.5 * np.nan_to_num(x[:, 1]) - np.nan_to_num(x[:, 2]) ** 2
    if name in ("binary", "hinge"):
        y = (z > 0).astype(float)
    elif name in ("tweedie", "gamma", "squaredlogerror"):
        y = np.exp(0.3 * z + 0.1 * rng.normal(size=rows))
    elif name == "cox":  # survival times, a third censored (negative)
        y = np.round(np.exp(-0.3 * z) * 10 + 1) * np.where(rng.random(rows) < 0.3, -1, 1)
    elif name in ("softprob", "softmax"):
        y = np.digitize(z, [-0.5, 0.5]).astype(float)
    else:
        y = z + 0.1 * rng.normal(size=rows)
    split = rows * 2 // 3
    paths = [os.path.join(d, "%s.%s.libsvm" % (name, part)) for part in ("train", "test")]
    t.write_libsvm(paths[0], x[:split], y[:split])
    t.write_libsvm(paths[1], x[split:], y[split:])
    return paths


def treering_train(d, name, extra=()):
    objective, keys = CASES[name]
    train, test = make_data(d, name)
    model = os.path.join(d, name + ".model.json")
    proc = t.run([t.treering_bin(), "/dev/null", "data=" + train, "eval[test]=" + test,
                  "objective=" + objective, "max_depth=4", "eta=0.3", "num_round=6",
                  "nthread=2", "model_out=" + model] + keys + list(extra))
    return train, test, model, proc


def treering_predict(d, model, data, margin=False):
    out = os.path.join(d, "pred.txt")
    t.run([t.treering_bin(), "/dev/null", "task=pred", "model_in=" + model, "test:data=" + data,
           "name_pred=" + out, "pred_margin=%d" % margin])
    return t.read_values(out)


def max_diff(a, b):
    import numpy as np
    a, b = np.asarray(a, dtype=float).reshape(-1), np.asarray(b, dtype=float).reshape(-1)
    assert a.shape == b.shape, "shapes differ: %s vs %s" % (a.shape, b.shape)
    return float(np.abs(a - b).max()) if a.size else 0.0


def test_xgboost_loads_treering_models():
    import xgboost as xgb
    for name in CASES:
        with t.TempDir() as d:
            _, test, model, _ = treering_train(d, name)
            booster = xgb.Booster(model_file=model)
            dm = xgb.DMatrix(test + "?format=libsvm")
            for margin in (False, True):
                diff = max_diff(treering_predict(d, model, test, margin),
                                booster.predict(dm, output_margin=margin))
                assert diff <= 1e-5, "%s margin=%s: max abs diff %g" % (name, margin, diff)


def test_treering_predicts_xgboost_models():
    import xgboost as xgb
    for name, (objective, keys) in CASES.items():
        with t.TempDir() as d:
            train, test = make_data(d, name)
            params = {"objective": objective, "max_depth": 4, "eta": 0.3, "tree_method": "hist"}
            params.update(kv.split("=") for kv in keys)
            booster = xgb.train(params, xgb.DMatrix(train + "?format=libsvm"), 6)
            model = os.path.join(d, "xgb.json")
            booster.save_model(model)
            dm = xgb.DMatrix(test + "?format=libsvm")
            for margin in (False, True):
                diff = max_diff(treering_predict(d, model, test, margin),
                                booster.predict(dm, output_margin=margin))
                assert diff <= 1e-5, "%s margin=%s: max abs diff %g" % (name, margin, diff)


def test_xgboost_models_save_back_byte_identical():
    """model_in -> learner -> model_out with num_round=0 rewrites XGBoost's file unchanged."""
    import xgboost as xgb
    for name, (objective, keys) in CASES.items():
        with t.TempDir() as d:
            train, _ = make_data(d, name)
            params = {"objective": objective, "max_depth": 5, "tree_method": "hist"}
            params.update(kv.split("=") for kv in keys)
            theirs = os.path.join(d, "xgb.json")
            xgb.train(params, xgb.DMatrix(train + "?format=libsvm"), 8).save_model(theirs)
            ours = os.path.join(d, "ours.json")
            t.run([t.treering_bin(), "/dev/null", "data=" + train, "num_round=0",
                   "model_in=" + theirs, "model_out=" + ours])
            with open(theirs, "rb") as a, open(ours, "rb") as b:
                assert a.read() == b.read(), name + ": saved model differs from XGBoost's file"


def test_metric_lines_match_xgboost_cli():
    """The same config file run by both CLIs prints the same lines: round, eval sets and
    metrics in the same order (values agree to 1e-4; the trees are the learner's business)."""
    import shutil
    if shutil.which("xgboost") is None:
        t.skip("the xgboost CLI is not installed")
    with t.TempDir() as d:
        make_data(d, "softprob")
        conf = os.path.join(d, "train.conf")
        with open(conf, "w") as f:
            f.write("# both CLIs read this file\nobjective = multi:softprob\nnum_class = 3\n"
                    "max_depth = 4\ntree_method = hist\neval_metric = merror\n"
                    "eval_metric = 'mlogloss'  # repeated key: two metrics\n"
                    "data = \"softprob.train.libsvm?format=libsvm\"\n"
                    "eval[test] = \"softprob.test.libsvm?format=libsvm\"\neval_train = 1\n")
        ours = t.run([t.treering_bin(), conf, "num_round=4", "model_out=a.json"], cwd=d)
        theirs = t.run(["xgboost", conf, "num_round=4", "model_out=b.json"], cwd=d)
        xgb_lines = [l.split("] ", 1)[1] for l in theirs.stderr.splitlines() if "\t" in l]
        our_lines = ours.stdout.splitlines()
        assert len(our_lines) == len(xgb_lines) == 4, (ours.stdout, theirs.stderr)
        for a, b in zip(our_lines, xgb_lines):
            fa, fb = a.split("\t"), b.split("\t")
            assert [f.split(":")[0] for f in fa] == [f.split(":")[0] for f in fb], (a, b)
            for x, y in zip(fa[1:], fb[1:]):
                assert abs(float(x.split(":")[1]) - float(y.split(":")[1])) <= 1e-4, (a, b)


def test_training_is_deterministic():
    with t.TempDir() as d:
        models = []
        for run, threads in enumerate(("2", "2", "1")):
            _, _, model, _ = treering_train(d, "softprob", ["nthread=" + threads])
            with open(model, "rb") as f:
                models.append(f.read())
        assert models[0] == models[1], "two identical runs wrote different model files"
        assert models[0] == models[2], "nthread=1 and nthread=2 wrote different model files"


def test_metric_lines_on_stdout():
    import re
    with t.TempDir() as d:
        _, _, _, proc = treering_train(d, "binary", ["eval_train=1"])
        lines = proc.stdout.splitlines()
        assert len(lines) == 6, proc.stdout
        for i, line in enumerate(lines):
            assert re.fullmatch(r"\[%d\]\ttest-auc:\d\.\d{17}\ttrain-auc:\d\.\d{17}" % i, line), line
        # stderr may begin with the verbosity-1 line saying which tree_method auto picked.
        assert re.search(r"^treering: 6 rounds in [\d.]+ s \(load [\d.]+ s, setup [\d.]+ s, "
                         r"boosting [\d.]+ s, evaluation [\d.]+ s\)", proc.stderr, re.M), proc.stderr


if __name__ == "__main__":
    t.need_xgboost_python()
    t.main([test_xgboost_loads_treering_models, test_treering_predicts_xgboost_models,
            test_xgboost_models_save_back_byte_identical, test_metric_lines_match_xgboost_cli,
            test_training_is_deterministic, test_metric_lines_on_stdout])
