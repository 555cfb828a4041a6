#!/usr/bin/python3
"""num_parallel_tree (random and boosted forests) against Debian's `xgboost` CLI and
python3-xgboost 1.7.4:

* without sampling every tree of a round is the single tree grown with eta / K (XGBoost 1.7's
  updaters divide learning_rate by the trees they grow at once): predictions equal XGBoost's
  CLI to 1e-6, treering's model loads in python3-xgboost and predicts the same, and XGBoost's
  forest model loaded into treering gives its margins, leaf indices (K columns per class per
  round) and contributions; ntree_limit counts trees per class (rounds x K) as XGBoost's;
* with row and column sampling the random streams differ from XGBoost's (docs/learner.md), so
  a random forest is compared by held-out AUC (within 0.005 of XGBoost's) and for determinism;
* each tree's root from the forest's whole-sample histogram (dense rows, subsample < 1)
  leaves every model and training metric as it is with TREERING_FOREST_ROOT=0;
* num_parallel_tree = 0, -1 or 1.5 is one error naming the key (exit 2);
* tree_method=gpu_hist grows the hist model and prints one warning naming the fallback."""
import os
import shutil

import cli_testlib as t


def make_data(d, rows=600, seed=11):
    import numpy as np
    rng = np.random.default_rng(seed)
    x = np.round(rng.normal(size=(rows, 6)) * 8) / 8
    x[rng.random((rows, 6)) < 0.1] = np.nan
    z = np.nan_to_num(x[:, 0]) - 0.7 * np.nan_to_num(x[:, 1]) ** 2 + 0.5 * np.nan_to_num(x[:, 2])
    y = (z + rng.normal(scale=0.5, size=rows) > 0).astype(float)
    path = os.path.join(d, "binary.libsvm")
    t.write_libsvm(path, x, y)
    return path, x, y


def close(ours, theirs, what, tol):
    assert len(ours) == len(theirs), "%s: %d vs %d values" % (what, len(ours), len(theirs))
    worst = max(abs(a - b) for a, b in zip(ours, theirs))
    assert worst <= tol, "%s: max difference %g > %g" % (what, worst, tol)


FOREST = ["objective=binary:logistic", "tree_method=hist", "num_parallel_tree=3", "num_round=4",
          "eta=0.5", "max_depth=4", "nthread=1"]


def test_forest_without_sampling_matches_xgboost():
    if shutil.which("xgboost") is None:
        t.skip("the xgboost CLI (Debian package xgboost) is not installed")
    import numpy as np
    import xgboost as xgb
    with t.TempDir() as d:
        data, x, _ = make_data(d)
        preds = {}
        for tag, program in (("ours", t.treering_bin()), ("theirs", "xgboost")):
            model = os.path.join(d, tag + ".json")
            pred = os.path.join(d, tag + ".pred")
            t.run([program, "/dev/null", "data=" + data, "model_out=" + model] + FOREST)
            t.run([program, "/dev/null", "task=pred", "model_in=" + model, "test:data=" + data,
                   "name_pred=" + pred, "nthread=1"])
            preds[tag] = t.read_values(pred)
        close(preds["ours"], preds["theirs"], "CLI predictions", 1e-6)
        dm = xgb.DMatrix(x)
        for tag in ("ours", "theirs"):
            booster = xgb.Booster(model_file=os.path.join(d, tag + ".json"))
            assert booster.num_boosted_rounds() == 4, tag
            close(list(booster.predict(dm)), preds["theirs"], tag + " in python-xgboost", 1e-6)
        # XGBoost's forest in treering: leaves, contributions, and rounds by ntree_limit.
        theirs = xgb.Booster(model_file=os.path.join(d, "theirs.json"))
        for key, kwargs in (("pred_leaf=1", dict(pred_leaf=True)),
                            ("pred_contribs=1", dict(pred_contribs=True)),
                            ("ntree_limit=6", dict(iteration_range=(0, 2)))):
            out = os.path.join(d, "explain.txt")
            t.run([t.treering_bin(), "/dev/null", "task=pred", "test:data=" + data, "nthread=1",
                   "model_in=" + os.path.join(d, "theirs.json"), "name_pred=" + out, key])
            expect = np.asarray(theirs.predict(dm, **kwargs), dtype=np.float64).ravel()
            close(t.read_values(out), list(expect), key, 1e-5)


def auc(y, p):
    import numpy as np
    order = np.argsort(p, kind="mergesort")
    ranks = np.empty(len(p))
    ranks[order] = np.arange(1, len(p) + 1)
    pos = y == 1
    return (ranks[pos].sum() - pos.sum() * (pos.sum() + 1) / 2) / (pos.sum() * (~pos).sum())


def test_random_forest_auc_and_determinism():
    import numpy as np
    import xgboost as xgb
    with t.TempDir() as d:
        data, x, y = make_data(d, rows=3000)
        n = 2000
        train = os.path.join(d, "train.libsvm")
        test = os.path.join(d, "test.libsvm")
        t.write_libsvm(train, x[:n], y[:n])
        t.write_libsvm(test, x[n:], y[n:])
        keys = ["objective=binary:logistic", "tree_method=hist", "num_parallel_tree=50",
                "num_round=1", "eta=1", "subsample=0.8", "colsample_bynode=0.8", "max_depth=6",
                "nthread=2"]
        models = []
        for i in range(2):
            model = os.path.join(d, "rf%d.json" % i)
            t.run([t.treering_bin(), "/dev/null", "data=" + train, "model_out=" + model] + keys)
            with open(model, "rb") as f:
                models.append(f.read())
        assert models[0] == models[1], "two runs with one seed gave different forests"
        pred = os.path.join(d, "rf.pred")
        t.run([t.treering_bin(), "/dev/null", "task=pred", "model_in=" + os.path.join(d, "rf0.json"),
               "test:data=" + test, "name_pred=" + pred])
        ours = auc(y[n:], np.array(t.read_values(pred)))
        params = dict(objective="binary:logistic", tree_method="hist", num_parallel_tree=50,
                      eta=1, subsample=0.8, colsample_bynode=0.8, max_depth=6, nthread=2)
        booster = xgb.train(params, xgb.DMatrix(x[:n], label=y[:n]), num_boost_round=1)
        theirs = auc(y[n:], booster.predict(xgb.DMatrix(x[n:])))
        print("random forest held-out AUC: treering %.4f, xgboost %.4f" % (ours, theirs))
        assert ours >= theirs - 0.005, "AUC %.4f vs XGBoost's %.4f" % (ours, theirs)


def test_root_from_the_forest_total_changes_no_model():
    """Sampled forests on dense rows take each tree's root histogram from the forest's total
    minus the tree's left-out rows (booster/tree/grow/forest_root.cc); TREERING_FOREST_ROOT=0
    builds every root from its own rows. The models and the training metrics (the margins)
    must be the same bytes: one output, several classes (each class's pairs copied out once)
    and several quantiles (leaves refreshed after each tree)."""
    import numpy as np
    with t.TempDir() as d:
        rng = np.random.default_rng(5)
        x = np.round(rng.normal(size=(3000, 6)) * 16) / 16  # dense: every feature present
        z = x[:, 0] - 0.7 * x[:, 1] ** 2 + 0.5 * x[:, 2] + rng.normal(scale=0.5, size=3000)
        data = os.path.join(d, "dense.libsvm")
        t.write_libsvm(data, x, np.digitize(z, [-0.5, 0.5]).astype(float))  # classes 0, 1, 2
        forest = ["tree_method=hist", "num_parallel_tree=6", "num_round=2", "subsample=0.7",
                  "colsample_bynode=0.8", "max_depth=5", "nthread=2", "eval[train]=" + data]
        for name, keys in (("one output", ["objective=reg:squarederror"]),
                           ("classes", ["objective=multi:softprob", "num_class=3"]),
                           ("quantiles", ["objective=reg:quantileerror",
                                          "quantile_alpha=[0.2,0.8]"])):
            outputs = []
            for env in ("TREERING_FOREST_ROOT=0", "TREERING_FOREST_ROOT=1"):
                model = os.path.join(d, "%s.%s.json" % (name.replace(" ", "_"), env[-1]))
                proc = t.run(["env", env, t.treering_bin(), "/dev/null", "data=" + data,
                              "model_out=" + model] + forest + keys)
                metrics = [w for w in (proc.stdout + proc.stderr).split() if w.startswith("train-")]
                assert metrics, "%s: no training metric printed" % name
                with open(model, "rb") as f:
                    outputs.append((f.read(), metrics))
            assert outputs[0][0] == outputs[1][0], "%s: the models differ" % name
            assert outputs[0][1] == outputs[1][1], "%s: %s vs %s" % (name, outputs[0][1],
                                                                     outputs[1][1])


def test_bad_num_parallel_tree_is_refused():
    with t.TempDir() as d:
        data = make_data(d, rows=50)[0]
        for value in ("0", "-1", "1.5"):
            proc = t.run([t.treering_bin(), "/dev/null", "data=" + data, "num_round=1",
                          "model_out=" + os.path.join(d, "m.json"), "num_parallel_tree=" + value],
                         check=False)
            said = proc.stdout + proc.stderr
            assert proc.returncode == 2 and "num_parallel_tree" in said, \
                "num_parallel_tree=%s: exit %d, %r" % (value, proc.returncode, said)


def test_gpu_hist_falls_back_to_hist_with_one_warning():
    with t.TempDir() as d:
        data = make_data(d, rows=200)[0]
        base = [t.treering_bin(), "/dev/null", "data=" + data, "num_round=2", "nthread=1"]
        gpu = os.path.join(d, "gpu.json")
        hist = os.path.join(d, "hist.json")
        proc = t.run(base + ["tree_method=gpu_hist", "gpu_id=0", "predictor=gpu_predictor",
                             "model_out=" + gpu])
        t.run(base + ["tree_method=hist", "model_out=" + hist])
        said = (proc.stdout + proc.stderr).splitlines()
        warnings = [line for line in said if "gpu_hist" in line]
        assert len(warnings) == 1 and "tree_method=hist" in warnings[0], said
        with open(gpu, "rb") as a, open(hist, "rb") as b:
            assert a.read() == b.read(), "gpu_hist did not grow the hist model"


if __name__ == "__main__":
    t.need_xgboost_python()
    t.main([test_forest_without_sampling_matches_xgboost, test_random_forest_auc_and_determinism,
            test_root_from_the_forest_total_changes_no_model,
            test_bad_num_parallel_tree_is_refused, test_gpu_hist_falls_back_to_hist_with_one_warning])
