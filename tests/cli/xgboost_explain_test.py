#!/usr/bin/python3
"""treering task=pred with pred_leaf, pred_contribs (exact and approx_contribs) and
pred_interactions, and task=importance (weight, gain, cover, total_gain, total_cover, with and
without a feature map), equal python3-xgboost 1.7's numbers on the same model (1e-5): models
trained by treering for binary:logistic, reg:squarederror and multi:softprob (3 classes) on data
with missing values, loaded by xgboost.Booster. Also: bad combinations of the keys exit 2."""
import os

import cli_testlib as t

CASES = {  # name: (objective, extra keys)
    "binary": ("binary:logistic", []),
    "regression": ("reg:squarederror", []),
    "softprob": ("multi:softprob", ["num_class=3"]),
}
FEATURES = 7
TOL = 1e-5


def make_data(d, name, rows):
    import numpy as np
    rng = np.random.default_rng(11)
    x = np.round(rng.normal(size=(rows, FEATURES)), 3)
    x[rng.random(size=x.shape) < 0.2] = np.nan  # missing values
    x[0, :] = np.arange(FEATURES)  # every column present, so both sides see FEATURES columns
    signal = np.nan_to_num(x[:, 0]) - np.nan_to_num(x[:, 1]) * np.nan_to_num(x[:, 2])
    if name == "binary":
        y = (signal > 0).astype(float)
    elif name == "softprob":
        y = np.digitize(signal, [-0.5, 0.5]).astype(float)
    else:
        y = signal + 0.1 * rng.normal(size=rows)
    path = os.path.join(d, name + ".libsvm")
    t.write_libsvm(path, x, y)
    return path, x


def train(d, name):
    objective, keys = CASES[name]
    data, x = make_data(d, name, 400)
    model = os.path.join(d, name + ".json")
    t.run([t.treering_bin(), "/dev/null", "data=" + data, "objective=" + objective,
           "max_depth=5", "eta=0.3", "num_round=8", "nthread=2", "model_out=" + model] + keys)
    return data, x, model


def predict(d, model, data, *keys):
    out = os.path.join(d, "pred.txt")
    t.run([t.treering_bin(), "/dev/null", "task=pred", "model_in=" + model, "test:data=" + data,
           "nthread=2", "name_pred=" + out] + list(keys))
    return t.read_values(out)


def expect_close(ours, theirs, what):
    import numpy as np
    theirs = np.asarray(theirs, dtype=np.float64).ravel()
    ours = np.asarray(ours, dtype=np.float64)
    assert ours.shape == theirs.shape, "%s: %s values, xgboost %s" % (what, ours.shape,
                                                                      theirs.shape)
    worst = np.max(np.abs(ours - theirs) / (1 + np.abs(theirs))) if ours.size else 0
    assert worst <= TOL, "%s: differs from xgboost by %g (relative)" % (what, worst)


def test_predictions_equal_xgboost():
    import xgboost as xgb
    with t.TempDir() as d:
        for name in CASES:
            data, x, model = train(d, name)
            bst = xgb.Booster(model_file=model)
            dm = xgb.DMatrix(x, missing=float("nan"))
            checks = [
                ("pred_leaf", ["pred_leaf=1"], dict(pred_leaf=True)),
                ("pred_contribs", ["pred_contribs=1"], dict(pred_contribs=True)),
                ("approx_contribs", ["pred_contribs=1", "approx_contribs=1"],
                 dict(pred_contribs=True, approx_contribs=True)),
                ("pred_interactions", ["pred_interactions=1"], dict(pred_interactions=True)),
                ("approx interactions", ["pred_interactions=1", "approx_contribs=1"],
                 dict(pred_interactions=True, approx_contribs=True)),
                ("contribs of rounds [0, 3)", ["pred_contribs=1", "iteration_end=3"],
                 dict(pred_contribs=True, iteration_range=(0, 3))),
                ("leaves of rounds [0, 5)", ["pred_leaf=1", "iteration_end=5"],
                 dict(pred_leaf=True, iteration_range=(0, 5))),
            ]
            for what, keys, kwargs in checks:
                expect_close(predict(d, model, data, *keys), bst.predict(dm, **kwargs),
                             "%s %s" % (name, what))


def write_fmap(path):
    with open(path, "w") as f:
        for i in range(FEATURES - 2):  # the last two features keep xgboost's default f<i>
            f.write("%d\tname%d\t%s\n" % (i, i, "q" if i % 2 else "float"))


def importance(d, model, kind, fmap):
    out = os.path.join(d, "importance.txt")
    t.run([t.treering_bin(), "/dev/null", "task=importance", "model_in=" + model,
           "importance_type=" + kind, "fmap=" + fmap, "name_importance=" + out])
    with open(out) as f:
        return [(line.split("\t")[0], float(line.split("\t")[1])) for line in f]


def test_importance_equals_get_score():
    import xgboost as xgb
    with t.TempDir() as d:
        fmap = os.path.join(d, "featmap.txt")
        write_fmap(fmap)
        for name in CASES:
            _, _, model = train(d, name)
            bst = xgb.Booster(model_file=model)
            for kind in ("weight", "gain", "cover", "total_gain", "total_cover"):
                ours = importance(d, model, kind, "NULL")
                theirs = bst.get_score(importance_type=kind)
                assert [k for k, _ in ours] == list(theirs), "%s %s: %s vs %s" % (
                    name, kind, ours, theirs)
                expect_close([v for _, v in ours], list(theirs.values()), name + " " + kind)
                # With a map naming features 0-4: names from it, then f5, f6.
                named = importance(d, model, kind, fmap)
                expected = [("name%d" % int(k[1:]) if int(k[1:]) < FEATURES - 2 else k, v)
                            for k, v in theirs.items()]
                assert [k for k, _ in named] == [k for k, _ in expected], named


def test_bad_combinations_exit_2():
    with t.TempDir() as d:
        data, _, model = train(d, "binary")
        for keys, words in ((["pred_leaf=1", "pred_contribs=1"], "set one"),
                            (["approx_contribs=1"], "approx_contribs"),
                            (["pred_contribs=1", "iteration_begin=2"], "iteration_begin"),
                            (["task=importance", "importance_type=entropy"], "importance_type")):
            proc = t.run([t.treering_bin(), "/dev/null", "task=pred", "model_in=" + model,
                          "test:data=" + data, "name_pred=" + os.path.join(d, "p.txt")] + keys,
                         check=False)
            lines = proc.stderr.strip().splitlines()
            assert proc.returncode == 2 and len(lines) == 1 and words in lines[0], \
                "%s: exit %d, %s" % (keys, proc.returncode, proc.stderr)


if __name__ == "__main__":
    t.need_xgboost_python()
    t.main([test_predictions_equal_xgboost, test_importance_equals_get_score,
            test_bad_combinations_exit_2])
