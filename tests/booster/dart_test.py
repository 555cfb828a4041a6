#!/usr/bin/python3
"""booster=dart against python3-xgboost 1.7 (issue 17 item 5), through the `treering` command.

treering draws DART's drops from the stream XGBoost 1.7 does (std::mt19937 seeded with `seed`,
skipping the draws 1.7's updaters take from it), so every case must give XGBoost's weight_drop
list and predictions: draws that are certain (rate_drop 1 or 0, skip_drop 1) and draws that
are not (rate_drop 0.3 uniform and weighted, one_drop, skip_drop 0.5), hist and exact,
normalize_type tree and forest, one output and three classes, reg:absoluteerror's refreshed
leaves. Models cross-load both ways in
JSON, UBJSON and XGBoost's binary format. pred_contribs / pred_interactions (exact and approx)
weigh each tree by its weight_drop as XGBoost's PredictContribution does. Run with /usr/bin/python3 TEST.py BUILD/bin."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
import cli_testlib as t  # noqa: E402

ROUNDS = 8
BASE = {"booster": "dart", "max_depth": "3", "eta": "0.3", "nthread": "1", "seed": "7"}
CASES = {  # name: extra keys
    "all_dropped": {"rate_drop": "1"},
    "none_dropped_skip": {"rate_drop": "0.5", "skip_drop": "1"},
    "one_drop_uniform": {"rate_drop": "0", "one_drop": "1"},
    "uniform": {"rate_drop": "0.3"},
    "uniform_forest": {"rate_drop": "0.3", "normalize_type": "forest"},
    "weighted_one_drop": {"rate_drop": "0.2", "sample_type": "weighted", "one_drop": "1"},
    "skip_half": {"rate_drop": "0.4", "skip_drop": "0.5", "normalize_type": "forest"},
    "softprob": {"rate_drop": "0.3", "objective": "multi:softprob", "num_class": "3"},
    # leaves refreshed to medians of residuals from the margins without the dropped trees
    "absoluteerror": {"rate_drop": "0.3", "objective": "reg:absoluteerror"},
}


def make_data(d, classes=0, rows=400):
    """Few distinct feature values, so both sides' hist cuts are exact."""
    import numpy as np
    rng = np.random.default_rng(11)
    x = rng.integers(0, 8, size=(rows, 4)).astype(float)
    z = 1.5 * x[:, 0] - x[:, 1] + 0.5 * x[:, 2] * (x[:, 3] > 3)
    y = np.digitize(z, [0, 5]).astype(float) if classes else z + rng.normal(size=rows)
    y = np.array(["%.6g" % v for v in y], dtype=float)  # what the LibSVM file holds
    path = os.path.join(d, "train%d.libsvm" % classes)
    t.write_libsvm(path, x, y)
    return path, x, y


def xgb_train(params, x, y, rounds=ROUNDS):
    import xgboost as xgb
    return xgb.train(dict(params), xgb.DMatrix(x, label=y), rounds)


def treering_train(d, data, params, out, rounds=ROUNDS):
    keys = ["%s=%s" % kv for kv in params.items()]
    t.run([t.treering_bin(), "/dev/null", "data=" + data, "num_round=%d" % rounds,
           "model_out=" + out] + keys)
    return out


def weight_drop(path):
    with open(path) as f:
        return json.load(f)["learner"]["gradient_booster"]["weight_drop"]


def check_close(ours, theirs, what, tol=1e-5):
    import numpy as np
    ours, theirs = np.asarray(ours, dtype=float), np.asarray(theirs, dtype=float)
    assert ours.shape == theirs.shape, "%s: shapes %s vs %s" % (what, ours.shape, theirs.shape)
    diff = np.abs(ours - theirs) / np.maximum(1.0, np.abs(theirs))
    assert diff.max() <= tol, "%s: max relative difference %g\nours   %s\ntheirs %s" % (
        what, diff.max(), ours.ravel()[:10], theirs.ravel()[:10])


def same_model_as_xgboost(tree_method, case):
    import xgboost as xgb
    params = dict(BASE, tree_method=tree_method, **CASES[case])
    with t.TempDir() as d:
        data, x, y = make_data(d, classes=3 if "num_class" in params else 0)
        theirs = xgb_train(params, x, y)
        theirs_path = os.path.join(d, "xgb.json")
        theirs.save_model(theirs_path)
        ours_path = treering_train(d, data, params, os.path.join(d, "ours.json"))
        check_close(weight_drop(ours_path), weight_drop(theirs_path), case + " weight_drop")
        ours = xgb.Booster(model_file=ours_path)
        dm = xgb.DMatrix(x)
        check_close(ours.predict(dm, output_margin=True), theirs.predict(dm, output_margin=True),
                    case + " margins")


def test_hist_cases_equal_xgboost():
    for case in CASES:
        same_model_as_xgboost("hist", case)


def test_exact_cases_equal_xgboost():
    for case in ("all_dropped", "one_drop_uniform", "uniform", "weighted_one_drop"):
        same_model_as_xgboost("exact", case)


def test_subsample_keeps_xgboost_drops():
    """Row sampling differs (treering's own stream) but takes the draws XGBoost's does, so
    which trees are dropped, and hence the count of distinct weights, still agrees."""
    params = dict(BASE, tree_method="hist", rate_drop="0.3", subsample="0.8")
    with t.TempDir() as d:
        data, x, y = make_data(d)
        theirs = xgb_train(params, x, y)
        theirs_path = os.path.join(d, "xgb.json")
        theirs.save_model(theirs_path)
        ours_path = treering_train(d, data, params, os.path.join(d, "ours.json"))
        # weights depend only on which trees were dropped, never on the trees themselves
        check_close(weight_drop(ours_path), weight_drop(theirs_path), "weight_drop")


def predict_with_treering(d, model, data, margin=True):
    out = os.path.join(d, "pred.txt")
    t.run([t.treering_bin(), "/dev/null", "task=pred", "model_in=" + model, "test:data=" + data,
           "name_pred=" + out, "pred_margin=%d" % int(margin), "nthread=1"])
    return t.read_values(out)


def test_models_load_both_ways():
    """treering's dart files (JSON, UBJSON, binary) load in XGBoost; XGBoost's in treering."""
    import xgboost as xgb
    params = dict(BASE, tree_method="hist", **CASES["uniform"])
    with t.TempDir() as d:
        data, x, y = make_data(d)
        dm = xgb.DMatrix(x)
        theirs = xgb_train(params, x, y)
        want = theirs.predict(dm, output_margin=True)
        for ext in ("json", "ubj", "model"):
            ours_path = treering_train(d, data, params, os.path.join(d, "ours." + ext))
            loaded = xgb.Booster(model_file=ours_path)
            check_close(loaded.predict(dm, output_margin=True), want, "xgboost loads ours." + ext)
            theirs_path = os.path.join(d, "xgb." + ext)
            theirs.save_model(theirs_path)
            check_close(predict_with_treering(d, theirs_path, data), want,
                        "treering loads xgb." + ext)
            # ours saved again by treering after loading XGBoost's: the same bytes as XGBoost
            resaved = os.path.join(d, "resaved." + ext)
            t.run([t.treering_bin(), "/dev/null", "data=" + data, "model_in=" + theirs_path,
                   "num_round=0", "model_out=" + resaved])
            check_close(xgb.Booster(model_file=resaved).predict(dm, output_margin=True), want,
                        "xgb." + ext + " through treering")


def test_contributions_equal_xgboost():
    """SHAP values of a dart model: each tree's contributions times its weight_drop entry."""
    import xgboost as xgb
    for case in ("uniform", "softprob"):
        params = dict(BASE, tree_method="hist", **CASES[case])
        with t.TempDir() as d:
            data, x, y = make_data(d, classes=3 if "num_class" in params else 0)
            model = treering_train(d, data, params, os.path.join(d, "ours.json"))
            assert any(w != 1.0 for w in weight_drop(model)), case + ": no tree is weighted"
            bst = xgb.Booster(model_file=model)
            dm = xgb.DMatrix(x)
            for keys, kwargs in ((["pred_contribs=1"], dict(pred_contribs=True)),
                                 (["pred_contribs=1", "approx_contribs=1"],
                                  dict(pred_contribs=True, approx_contribs=True)),
                                 (["pred_interactions=1"], dict(pred_interactions=True))):
                out = os.path.join(d, "contribs.txt")
                t.run([t.treering_bin(), "/dev/null", "task=pred", "model_in=" + model,
                       "test:data=" + data, "name_pred=" + out, "nthread=1"] + keys)
                check_close(t.read_values(out), bst.predict(dm, **kwargs).ravel(),
                            "%s %s" % (case, " ".join(keys)))


def test_continued_training_equals_xgboost():
    """model_in = a dart model: more rounds draw drops among the loaded trees too."""
    import xgboost as xgb
    params = dict(BASE, tree_method="hist", **CASES["uniform"])
    with t.TempDir() as d:
        data, x, y = make_data(d)
        first = os.path.join(d, "first.json")
        xgb_train(params, x, y, 4).save_model(first)
        theirs = xgb.train(dict(params), xgb.DMatrix(x, label=y), 4, xgb_model=first)
        theirs_path = os.path.join(d, "xgb.json")
        theirs.save_model(theirs_path)
        ours_path = os.path.join(d, "ours.json")
        t.run([t.treering_bin(), "/dev/null", "data=" + data, "model_in=" + first,
               "num_round=4", "model_out=" + ours_path] + ["%s=%s" % kv for kv in params.items()])
        check_close(weight_drop(ours_path), weight_drop(theirs_path), "weight_drop")
        dm = xgb.DMatrix(x)
        check_close(xgb.Booster(model_file=ours_path).predict(dm, output_margin=True),
                    theirs.predict(dm, output_margin=True), "margins")


def test_two_workers_equal_one():
    """Every rank draws the same drops: two workers under treering-submit grow the model one
    process grows (few distinct values: the sketches are exact)."""
    submit = os.path.join(os.path.dirname(t.treering_bin()), "treering-submit")
    if not os.path.exists(submit):
        t.skip("treering-submit is not built")
    params = dict(BASE, tree_method="hist", rate_drop="0.3", one_drop="1")
    keys = ["%s=%s" % kv for kv in params.items()]
    with t.TempDir() as d:
        data, _, _ = make_data(d)
        one = treering_train(d, data, params, os.path.join(d, "one.json"))
        two = os.path.join(d, "two.json")
        t.run([submit, "--cluster", "local", "--num-workers", "2", "--", t.treering_bin(),
               "/dev/null", "data=" + data, "num_round=%d" % ROUNDS, "model_out=" + two] + keys)
        with open(one) as f1, open(two) as f2:
            m1, m2 = json.load(f1), json.load(f2)
        assert m1["learner"]["gradient_booster"] == m2["learner"]["gradient_booster"], \
            "two workers grew another dart model than one process"


def test_bad_dart_keys_are_errors():
    with t.TempDir() as d:
        data, _, _ = make_data(d)
        for bad in ("rate_drop=1.5", "sample_type=random", "normalize_type=none", "skip_drop=-1"):
            proc = t.run([t.treering_bin(), "/dev/null", "data=" + data, "booster=dart",
                          "num_round=1", bad], check=False)
            key = bad.split("=")[0]
            assert proc.returncode != 0 and key in proc.stderr, \
                "%s: exit %d, stderr %s" % (bad, proc.returncode, proc.stderr)


if __name__ == "__main__":
    t.need_xgboost_python()
    t.main([test_hist_cases_equal_xgboost, test_exact_cases_equal_xgboost,
            test_subsample_keeps_xgboost_drops, test_models_load_both_ways,
            test_contributions_equal_xgboost, test_continued_training_equals_xgboost,
            test_two_workers_equal_one, test_bad_dart_keys_are_errors])
