#!/usr/bin/python3
"""UBJSON (.ubj) and XGBoost's legacy binary format (any other extension) against
python3-xgboost 1.7, both ways, for binary:logistic, reg:squarederror and multi:softprob with a
user base_score and early stopping's attributes (best_iteration, best_score,
best_ntree_limit), and exact trees pruned by gamma (deleted nodes keep their slots):
* treering predicts XGBoost's .json/.ubj/.model files as XGBoost does, and rewrites XGBoost's
  .ubj and .model files byte for byte (model_in -> num_round=0 -> model_out);
* XGBoost loads treering's .ubj/.model files, predicts as treering does and sees the same
  attributes;
* JSON -> UBJSON -> binary -> JSON through the treering CLI gives back XGBoost's JSON bytes,
  and XGBoost converts treering's binary file back to its own JSON bytes.
Exits 77 when python3-xgboost is missing (argv[1]: the build's bin directory)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
import cli_testlib as t  # noqa: E402

CASES = {  # name: xgboost params beyond the common ones
    "binary": {"objective": "binary:logistic", "base_score": 0.3},
    "regression": {"objective": "reg:squarederror", "base_score": 1.5},
    "softprob": {"objective": "multi:softprob", "num_class": 3},
    # exact + gamma: the prune updater leaves deleted nodes (num_deleted > 0) in the files
    "pruned": {"objective": "reg:squarederror", "tree_method": "exact", "gamma": 8.0},
}


def make_data(d, name, rows=400, features=5, seed=7):
    import numpy as np
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(rows, features))
    x[rng.random(size=x.shape) < 0.1] = np.nan
    z = np.nan_to_num(x[:, 0]) - 0.7 * np.nan_to_num(x[:, 1]) + 0.3 * np.nan_to_num(x[:, 2])
    if name == "binary":
        y = (z > 0.2).astype(float)
    elif name == "softprob":
        y = np.digitize(z, [-0.5, 0.5]).astype(float)
    else:
        y = 2 * z + 0.1 * rng.normal(size=rows)
    paths = [os.path.join(d, "%s.%s.libsvm" % (name, part)) for part in ("train", "test")]
    t.write_libsvm(paths[0], x[: rows // 2], y[: rows // 2])
    t.write_libsvm(paths[1], x[rows // 2:], y[rows // 2:])
    return paths


def dmatrix(path):
    import xgboost as xgb
    return xgb.DMatrix(path + "?format=libsvm")


def xgboost_model(d, name):
    """XGBoost's booster with early stopping's attributes, saved in all three formats."""
    import xgboost as xgb
    train, test = make_data(d, name)
    params = dict({"tree_method": "hist"}, max_depth=3, eta=0.4, nthread=1, **CASES[name])
    booster = xgb.train(params, dmatrix(train), 30, evals=[(dmatrix(test), "test")],
                        early_stopping_rounds=3, verbose_eval=False)
    assert "best_iteration" in booster.attributes(), booster.attributes()
    paths = {ext: os.path.join(d, "xgb." + ext) for ext in ("json", "ubj", "model")}
    for path in paths.values():
        booster.save_model(path)
    if "gamma" in CASES[name]:
        import json
        deleted = [int(tree["tree_param"]["num_deleted"])
                   for tree in json.load(open(paths["json"]))["learner"]["gradient_booster"]
                   ["model"]["trees"]]
        assert sum(deleted) > 0, "%s: gamma pruned nothing, no deleted nodes to test" % name
    return booster, train, test, paths


def treering_predict(d, model, data, margin=False):
    out = os.path.join(d, "pred.txt")
    t.run([t.treering_bin(), "/dev/null", "task=pred", "model_in=" + model, "test:data=" + data,
           "name_pred=" + out, "pred_margin=%d" % margin])
    return t.read_values(out)


def rewrite(d, train, model_in, model_out):
    t.run([t.treering_bin(), "/dev/null", "data=" + train, "num_round=0", "model_in=" + model_in,
           "model_out=" + model_out], cwd=d)
    return model_out


def read(path):
    with open(path, "rb") as f:
        return f.read()


def max_diff(a, b):
    import numpy as np
    a, b = np.asarray(a, dtype=float).reshape(-1), np.asarray(b, dtype=float).reshape(-1)
    assert a.shape == b.shape, "shapes differ: %s vs %s" % (a.shape, b.shape)
    return float(np.abs(a - b).max()) if a.size else 0.0


def test_treering_predicts_and_rewrites_xgboost_files():
    for name in CASES:
        with t.TempDir() as d:
            booster, train, test, paths = xgboost_model(d, name)
            dm = dmatrix(test)
            for ext, path in paths.items():
                for margin in (False, True):
                    diff = max_diff(treering_predict(d, path, test, margin),
                                    booster.predict(dm, output_margin=margin))
                    assert diff <= 1e-5, "%s %s margin=%s: max diff %g" % (name, ext, margin, diff)
            for ext in ("ubj", "model"):
                ours = rewrite(d, train, paths[ext], os.path.join(d, "ours." + ext))
                assert read(ours) == read(paths[ext]), "%s: rewritten .%s differs" % (name, ext)


def test_xgboost_loads_treering_files():
    import xgboost as xgb
    for name, params in CASES.items():
        with t.TempDir() as d:
            train, test = make_data(d, name)
            keys = ["objective=" + params["objective"], "max_depth=3", "eta=0.4",
                    "num_round=30", "early_stopping_rounds=3", "eval[test]=" + test, "nthread=1"]
            keys += ["%s=%s" % (k, params[k]) for k in ("base_score", "num_class") if k in params]
            keys += ["%s=%s" % (k, params[k]) for k in ("tree_method", "gamma") if k in params]
            for ext in ("ubj", "model"):
                model = os.path.join(d, "tr." + ext)
                t.run([t.treering_bin(), "/dev/null", "data=" + train, "model_out=" + model]
                      + keys, cwd=d)
                booster = xgb.Booster(model_file=model)
                attrs = booster.attributes()
                for key in ("best_iteration", "best_score", "best_ntree_limit"):
                    assert key in attrs, "%s .%s: XGBoost sees attributes %s" % (name, ext, attrs)
                for margin in (False, True):
                    diff = max_diff(treering_predict(d, model, test, margin),
                                    booster.predict(dmatrix(test), output_margin=margin))
                    assert diff <= 1e-5, "%s %s margin=%s: max diff %g" % (name, ext, margin, diff)


def test_json_ubjson_binary_json_chain_is_byte_identical():
    import xgboost as xgb
    for name in CASES:
        with t.TempDir() as d:
            _, train, _, paths = xgboost_model(d, name)
            ubj = rewrite(d, train, paths["json"], os.path.join(d, "a.ubj"))
            binary = rewrite(d, train, ubj, os.path.join(d, "b.model"))
            back = rewrite(d, train, binary, os.path.join(d, "c.json"))
            assert read(back) == read(paths["json"]), name + ": the chain changed the JSON"
            assert read(ubj) == read(paths["ubj"]), name + ": JSON -> UBJSON differs from XGBoost"
            theirs = os.path.join(d, "xgb-from-ours.json")
            xgb.Booster(model_file=binary).save_model(theirs)
            assert read(theirs) == read(paths["json"]), name + ": XGBoost reads our binary as " \
                "a different model"


def test_xgboost_cli_model_files():
    """The xgboost CLI's NNNN.model snapshots (contain_eval_metrics and a "metrics" attribute)
    are rewritten byte for byte, and the CLI predicts treering's .model files as treering does."""
    import shutil
    if shutil.which("xgboost") is None:
        t.skip("the xgboost CLI is not installed")
    with t.TempDir() as d:
        train, test = make_data(d, "binary")
        conf = os.path.join(d, "train.conf")
        with open(conf, "w") as f:
            f.write("objective = binary:logistic\nmax_depth = 3\neta = 0.3\nnum_round = 4\n"
                    "save_period = 2\neval_metric = auc\ndata = \"%s?format=libsvm\"\n"
                    "eval[test] = \"%s?format=libsvm\"\n" % (train, test))
        t.run(["xgboost", conf, "model_dir=" + d], cwd=d)
        for snapshot in ("0002.model", "0004.model"):
            theirs = os.path.join(d, snapshot)
            ours = rewrite(d, train, theirs, os.path.join(d, "ours.model"))
            assert read(ours) == read(theirs), snapshot + " rewritten differs"
        model = os.path.join(d, "tr.model")
        t.run([t.treering_bin(), "/dev/null", "data=" + train, "objective=binary:logistic",
               "max_depth=3", "num_round=4", "eval_metric=auc", "model_out=" + model], cwd=d)
        pred = os.path.join(d, "xgb-pred.txt")
        t.run(["xgboost", conf, "task=pred", "model_in=" + model,
               "test:data=%s?format=libsvm" % test, "name_pred=" + pred], cwd=d)
        diff = max_diff(treering_predict(d, model, test), t.read_values(pred))
        assert diff <= 1e-5, "xgboost CLI on treering's .model: max diff %g" % diff


if __name__ == "__main__":
    t.need_xgboost_python()
    t.main([test_treering_predicts_and_rewrites_xgboost_files, test_xgboost_loads_treering_files,
            test_json_ubjson_binary_json_chain_is_byte_identical, test_xgboost_cli_model_files])
