#!/usr/bin/python3
"""reg:absoluteerror against python3-xgboost 1.7 (issue 17 item 2), through `treering`.

1.7 starts base_score at the (weighted) median of the labels and, with tree_method=hist, resets
each leaf to the median of its rows' residuals (unscaled by eta: that came in 2.0); exact trees
keep their leaves. Every case must give XGBoost's base_score, trees and predictions; models
load both ways. Run with /usr/bin/python3 TEST.py BUILD/bin."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
import cli_testlib as t  # noqa: E402

BASE = {"objective": "reg:absoluteerror", "max_depth": "3", "eta": "0.3", "nthread": "1"}


def make_data(d, weighted, rows=500, odd=False):
    """Few distinct feature values (exact hist cuts); heavy-tailed noise, where the median
    and the mean differ. LibSVM label:weight when weighted."""
    import numpy as np
    rng = np.random.default_rng(5)
    rows += int(odd)
    x = rng.integers(0, 8, size=(rows, 4)).astype(float)
    y = 1.5 * x[:, 0] - x[:, 1] + rng.standard_t(2, size=rows)
    y = np.array(["%.6g" % v for v in y], dtype=float)
    w = np.array(["%.6g" % v for v in rng.uniform(0.2, 2.0, size=rows)], dtype=float)
    w = w if weighted else None
    path = os.path.join(d, "train.libsvm")
    with open(path, "w") as f:
        for i in range(rows):
            label = "%.6g" % y[i] + (":%.6g" % w[i] if weighted else "")
            f.write(label + "".join(" %d:%g" % (j, v) for j, v in enumerate(x[i])) + "\n")
    return path, x, y, w


def learner(path):
    with open(path) as f:
        return json.load(f)["learner"]


def same_as_xgboost(tree_method, weighted, odd, extra=None):
    import numpy as np
    import xgboost as xgb
    params = dict(BASE, tree_method=tree_method, **(extra or {}))
    what = "%s weighted=%s odd=%s %s" % (tree_method, weighted, odd, extra or "")
    with t.TempDir() as d:
        data, x, y, w = make_data(d, weighted, odd=odd)
        dm = xgb.DMatrix(x, label=y, weight=w)
        theirs = xgb.train(params, dm, 6)
        theirs_path = os.path.join(d, "xgb.json")
        theirs.save_model(theirs_path)
        ours_path = os.path.join(d, "ours.json")
        t.run([t.treering_bin(), "/dev/null", "data=" + data, "num_round=6",
               "model_out=" + ours_path] + ["%s=%s" % kv for kv in params.items()])
        a, b = learner(ours_path), learner(theirs_path)
        assert a["learner_model_param"]["base_score"] == b["learner_model_param"]["base_score"], \
            "%s: base_score %s vs %s" % (what, a["learner_model_param"]["base_score"],
                                         b["learner_model_param"]["base_score"])
        for i, (ta, tb) in enumerate(zip(a["gradient_booster"]["model"]["trees"],
                                         b["gradient_booster"]["model"]["trees"])):
            assert ta["left_children"] == tb["left_children"], "%s: tree %d shape" % (what, i)
            diff = np.abs(np.subtract(ta["split_conditions"], tb["split_conditions"])).max()
            assert diff <= 1e-5, "%s: tree %d split_conditions/leaves differ by %g" % (
                what, i, diff)
        ours = xgb.Booster(model_file=ours_path)
        diff = np.abs(ours.predict(dm) - theirs.predict(dm)).max()
        assert diff <= 1e-5, "%s: predictions differ by %g" % (what, diff)


def test_hist_equals_xgboost():
    for weighted in (False, True):
        for odd in (False, True):  # an even count interpolates the median, an odd one not
            same_as_xgboost("hist", weighted, odd)


def test_hist_lossguide_equals_xgboost():
    same_as_xgboost("hist", True, False, {"grow_policy": "lossguide", "max_leaves": "6",
                                          "max_depth": "0"})


def test_exact_equals_xgboost():
    for weighted in (False, True):
        same_as_xgboost("exact", weighted, False)


def test_user_base_score_is_kept():
    import xgboost as xgb
    params = dict(BASE, tree_method="hist", base_score="0.25")
    with t.TempDir() as d:
        data, x, y, _ = make_data(d, False)
        theirs = xgb.train(params, xgb.DMatrix(x, label=y), 2)
        theirs_path = os.path.join(d, "xgb.json")
        theirs.save_model(theirs_path)
        ours_path = os.path.join(d, "ours.json")
        t.run([t.treering_bin(), "/dev/null", "data=" + data, "num_round=2",
               "model_out=" + ours_path] + ["%s=%s" % kv for kv in params.items()])
        a, b = learner(ours_path), learner(theirs_path)
        assert a["learner_model_param"] == b["learner_model_param"], \
            (a["learner_model_param"], b["learner_model_param"])


def test_models_load_both_ways():
    import numpy as np
    import xgboost as xgb
    params = dict(BASE, tree_method="hist")
    with t.TempDir() as d:
        data, x, y, _ = make_data(d, False)
        dm = xgb.DMatrix(x)
        theirs = xgb.train(params, xgb.DMatrix(x, label=y), 4)
        want = theirs.predict(dm)
        for ext in ("json", "ubj", "model"):
            theirs_path = os.path.join(d, "xgb." + ext)
            theirs.save_model(theirs_path)
            out = os.path.join(d, "pred.txt")
            t.run([t.treering_bin(), "/dev/null", "task=pred", "model_in=" + theirs_path,
                   "test:data=" + data, "name_pred=" + out])
            diff = np.abs(np.array(t.read_values(out)) - want).max()
            assert diff <= 1e-5, "treering predicts xgb.%s %g off" % (ext, diff)
            ours_path = os.path.join(d, "ours." + ext)
            t.run([t.treering_bin(), "/dev/null", "data=" + data, "num_round=4",
                   "model_out=" + ours_path] + ["%s=%s" % kv for kv in params.items()])
            diff = np.abs(xgb.Booster(model_file=ours_path).predict(dm) - want).max()
            assert diff <= 1e-5, "xgboost predicts ours.%s %g off" % (ext, diff)


if __name__ == "__main__":
    t.need_xgboost_python()
    t.main([test_hist_equals_xgboost, test_hist_lossguide_equals_xgboost,
            test_exact_equals_xgboost, test_user_base_score_is_kept, test_models_load_both_ways])
