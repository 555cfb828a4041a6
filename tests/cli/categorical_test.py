#!/usr/bin/python3
"""Categorical features (feature_types c, max_cat_to_onehot, max_cat_threshold) against
python3-xgboost 1.7 (xgb.DMatrix(..., feature_types=[...], enable_categorical=True),
tree_method=hist):

* trees equal node for node (split features, split types, category sets, missing directions,
  links) and predictions to 1e-5, with one-hot splits (3 categories < max_cat_to_onehot=4),
  partition splits (12 and 40 categories), missing values in categorical columns, and a
  max_cat_threshold small enough to cut the partition scans short;
* cross-loading: python3-xgboost loads treering's JSON and UBJSON models and predicts the
  same; treering loads XGBoost's JSON (split_conditions NaN) and UBJSON models and predicts
  XGBoost's numbers;
* dumps: treering's text and JSON dumps of a categorical model equal XGBoost's dumps of it;
* two workers under treering-submit train the single-process model byte for byte;
* invalid categories (negative, not an integer, >= 2^24) and a feature_types list of the
  wrong length fail with one line naming the file, the feature and the row.

Numerical values lie on a 1/8 grid and labels on a 1/16 grid, so both parsers read the same
floats (see tree_method_test.py)."""
import json
import os

import cli_testlib as t

FEATURE_TYPES = ["c", "c", "q", "c", "q"]


def make_data(d, rows=3000, seed=11, name="cat"):
    import numpy as np
    rng = np.random.default_rng(seed)
    x = np.zeros((rows, 5))
    x[:, 0] = rng.integers(0, 3, rows)    # 3 categories: one-hot
    x[:, 1] = rng.integers(0, 12, rows)   # 12 categories: partition
    x[:, 2] = np.round(rng.normal(size=rows) * 8) / 8
    x[:, 3] = rng.integers(0, 40, rows)   # 40 categories: partition, cut by max_cat_threshold
    x[:, 4] = np.round(rng.normal(size=rows) * 8) / 8
    x[rng.random(rows) < 0.1, 1] = np.nan   # missing categories
    x[rng.random(rows) < 0.05, 0] = np.nan
    x[rng.random(rows) < 0.05, 3] = np.nan
    effect1 = np.where(np.isin(x[:, 1], [2, 5, 7, 9]), 1.5, 0.0)
    effect3 = (np.nan_to_num(x[:, 3], nan=0) % 7) * 0.2
    z = ((x[:, 0] == 1) * 1.0 + effect1 + effect3 + 0.3 * x[:, 2] - 0.2 * x[:, 4] +
         rng.normal(scale=0.2, size=rows))
    y = np.round(z * 16) / 16
    path = os.path.join(d, name + ".libsvm")
    t.write_libsvm(path, x, y)
    return path, x, y


def keys_for(extra=()):
    return ["tree_method=hist", "objective=reg:squarederror", "max_depth=4", "num_round=6",
            "nthread=1", "feature_types=" + ",".join(FEATURE_TYPES)] + list(extra)


def python_params(extra):
    params = {"tree_method": "hist", "objective": "reg:squarederror", "max_depth": 4,
              "nthread": 1}
    for kv in extra:
        k, v = kv.split("=")
        params[k] = float(v) if "." in v else int(v)
    return params


def train_ours(d, data, extra, tag):
    model = os.path.join(d, tag + ".json")
    t.run([t.treering_bin(), "/dev/null", "data=" + data, "model_out=" + model] + keys_for(extra))
    return model


def predict_ours(d, model, data):
    pred = os.path.join(d, "pred.txt")
    t.run([t.treering_bin(), "/dev/null", "task=pred", "model_in=" + model, "test:data=" + data,
           "name_pred=" + pred, "nthread=1"])
    return t.read_values(pred)


def dmatrix(x, y=None):
    import xgboost as xgb
    return xgb.DMatrix(x, y, feature_types=FEATURE_TYPES, enable_categorical=True)


def trees_of(model_path):
    with open(model_path) as f:
        text = f.read().replace("NaN", "null")
    return json.loads(text)["learner"]["gradient_booster"]["model"]["trees"]


def assert_same_trees(ours, theirs, what):
    keys = ["left_children", "right_children", "split_indices", "split_type", "default_left",
            "categories_nodes", "categories_segments", "categories_sizes", "categories"]
    assert len(ours) == len(theirs), "%s: %d vs %d trees" % (what, len(ours), len(theirs))
    for i, (a, b) in enumerate(zip(ours, theirs)):
        for k in keys:
            assert a[k] == b[k], "%s: tree %d %s: ours %s, xgboost %s" % (what, i, k, a[k], b[k])
        for k in ("base_weights", "sum_hessian"):
            worst = max(abs(p - q) for p, q in zip(a[k], b[k]))
            assert worst <= 1e-4 * max(1.0, max(abs(q) for q in b[k])), \
                "%s: tree %d %s differ by %g" % (what, i, k, worst)


def assert_close(ours, theirs, what, tol=1e-5):
    assert len(ours) == len(theirs), "%s: %d vs %d predictions" % (what, len(ours), len(theirs))
    worst = max(abs(a - b) for a, b in zip(ours, theirs))
    assert worst <= tol, "%s: predictions differ by %g (> %g)" % (what, worst, tol)
    print("%s: max |diff| %.3g over %d rows" % (what, worst, len(ours)))


CASES = [
    [],                                                 # defaults: onehot 4, threshold 64
    ["max_cat_threshold=8"],                            # partition scans cut short
    ["max_cat_to_onehot=13", "min_child_weight=5"],     # feature 1 one-hot too
    ["max_cat_to_onehot=1", "reg_lambda=3", "reg_alpha=0.5"],  # every feature partitioned
]


def test_trees_and_predictions_equal_xgboost():
    import xgboost as xgb
    with t.TempDir() as d:
        data, x, y = make_data(d)
        for extra in CASES:
            what = "case %s" % (extra or "defaults")
            ours = train_ours(d, data, extra, "ours")
            booster = xgb.train(python_params(extra), dmatrix(x, y), 6)
            theirs = os.path.join(d, "theirs.json")
            booster.save_model(theirs)
            tr = trees_of(ours)
            assert any(1 in tree["split_type"] for tree in tr), what + ": no categorical split"
            assert_same_trees(tr, trees_of(theirs), what)
            assert_close(predict_ours(d, ours, data), booster.predict(dmatrix(x)), what)
        # Both kinds were grown: a one-hot split sends one category right, a partition more.
        sizes = [s for tree in trees_of(train_ours(d, data, [], "ours"))
                 for s in tree["categories_sizes"]]
        assert 1 in sizes and max(sizes) > 1, "sizes %s" % sizes


def test_models_cross_load():
    import xgboost as xgb
    with t.TempDir() as d:
        data, x, y = make_data(d)
        ours = train_ours(d, data, [], "ours")
        ours_ubj = os.path.join(d, "ours.ubj")
        t.run([t.treering_bin(), "/dev/null", "data=" + data, "model_out=" + ours_ubj] +
              keys_for())
        our_pred = predict_ours(d, ours, data)
        for path in (ours, ours_ubj):
            loaded = xgb.Booster(model_file=path)
            assert_close(our_pred, loaded.predict(dmatrix(x)), "xgboost loads " + path)
        booster = xgb.train(python_params([]), dmatrix(x, y), 6)
        for ext in ("json", "ubj"):
            theirs = os.path.join(d, "theirs." + ext)
            booster.save_model(theirs)
            assert_close(predict_ours(d, theirs, data), booster.predict(dmatrix(x)),
                         "treering loads XGBoost's ." + ext)
        # Unseen and invalid categories at prediction time go where XGBoost sends them.
        odd = os.path.join(d, "odd.libsvm")
        import numpy as np
        xo = np.array([[1, 50, 0.5, 99, 0], [-1, 2.7, 0, -3, 1], [2, 1e9, 0, 39, 0]],
                      dtype=float)
        t.write_libsvm(odd, xo, np.zeros(3))
        assert_close(predict_ours(d, ours, odd),
                     xgb.Booster(model_file=ours).predict(
                         xgb.DMatrix(xo, feature_types=FEATURE_TYPES, enable_categorical=True)),
                     "unseen, negative, fractional and huge categories")


def our_dump(d, model, fmt, stats, fmap=None):
    dump = os.path.join(d, "dump.txt")
    t.run([t.treering_bin(), "/dev/null", "task=dump", "model_in=" + model, "name_dump=" + dump,
           "dump_format=" + fmt, "dump_stats=%d" % int(stats)] +
          (["fmap=" + fmap] if fmap else []))
    with open(dump) as f:
        return f.read()


def test_dumps_equal_xgboost():
    """Without a feature map, against the xgboost CLI (treering's task=dump is its task=dump;
    python's get_dump makes up a feature map from the model's feature_types instead); with a
    feature map naming the categorical features type c, against python's get_dump(fmap)."""
    import shutil
    import xgboost as xgb
    with t.TempDir() as d:
        data = make_data(d)[0]
        ours = train_ours(d, data, [], "ours")
        formats = [("text", False), ("text", True), ("json", False), ("json", True)]
        if shutil.which("xgboost") is None:
            t.skip_part("the xgboost CLI (Debian package xgboost) is not installed")
        else:
            for fmt, stats in formats + [("dot", False)]:
                theirs = os.path.join(d, "theirs.txt")
                t.run(["xgboost", "/dev/null", "task=dump", "model_in=" + ours,
                       "name_dump=" + theirs, "dump_format=" + fmt,
                       "dump_stats=%d" % int(stats)])
                with open(theirs) as f:
                    expected = f.read()
                got = our_dump(d, ours, fmt, stats)
                assert got == expected, "%s dump (stats %s) differs from the CLI's:\n%s\nvs\n%s" % (
                    fmt, stats, got[:1500], expected[:1500])
        fmap = os.path.join(d, "cat.fmap")
        with open(fmap, "w") as f:
            names = ["colour", "shape", "size", "city", "weight"]
            for i, (name, ty) in enumerate(zip(names, FEATURE_TYPES)):
                f.write("%d\t%s\t%s\n" % (i, name, ty))
        booster = xgb.Booster(model_file=ours)
        for fmt, stats in formats:
            text = our_dump(d, ours, fmt, stats, fmap)
            for i, tree in enumerate(booster.get_dump(fmap=fmap, with_stats=stats,
                                                      dump_format=fmt)):
                assert tree in text, "%s dump (stats %s, fmap) of tree %d differs:\n%s\nvs\n%s" % (
                    fmt, stats, i, tree, text[:1500])
        assert "[shape:{" in our_dump(d, ours, "text", False, fmap)
        # A feature map calling a categorical split's feature numerical is an error, as in XGBoost.
        with open(fmap, "w") as f:
            f.write("0\tcolour\tq\n1\tshape\tq\n")
        dump = os.path.join(d, "dump.txt")
        proc = t.run([t.treering_bin(), "/dev/null", "task=dump", "model_in=" + ours,
                      "name_dump=" + dump, "fmap=" + fmap], check=False)
        assert proc.returncode != 0 and "type c" in proc.stderr, proc.stderr


def test_two_workers_equal_one():
    submit = os.path.join(os.path.dirname(t.treering_bin()), "treering-submit")
    if not os.path.exists(submit):
        t.skip("treering-submit is not built")
    with t.TempDir() as d:
        data = make_data(d, rows=2000)[0]
        single = train_ours(d, data, [], "single")
        dist = os.path.join(d, "dist.json")
        t.run([submit, "--cluster", "local", "--num-workers", "2", "--", t.treering_bin(),
               "/dev/null", "data=" + data, "model_out=" + dist] + keys_for(), cwd=d)
        with open(dist, "rb") as a, open(single, "rb") as b:
            assert a.read() == b.read(), "the 2-worker model differs from the 1-worker model"


def test_invalid_categories_are_errors():
    with t.TempDir() as d:
        for bad, why in (("-1", "negative"), ("2.5", "not an integer"),
                         ("16777216", "2^24"), ("70000", "65535")):
            path = os.path.join(d, "bad.libsvm")
            with open(path, "w") as f:
                f.write("1 0:1 1:2 2:0.5\n0 0:0 1:3 2:1\n1 0:2 1:%s 2:0\n" % bad)
            proc = t.run([t.treering_bin(), "/dev/null", "data=" + path, "tree_method=hist",
                          "feature_types=c,c,q", "num_round=1"], check=False)
            err = proc.stderr.strip()
            assert proc.returncode != 0, "value %s: exit 0" % bad
            assert "bad.libsvm" in err and "feature 1" in err and why in err and \
                "line 3" in err, "value %s: message %r" % (bad, err)
            assert "Traceback" not in err and "Segmentation" not in err
        path = os.path.join(d, "ok.libsvm")
        with open(path, "w") as f:
            f.write("1 0:1 1:2\n0 0:0 1:3\n")
        proc = t.run([t.treering_bin(), "/dev/null", "data=" + path, "tree_method=hist",
                      "feature_types=c,c,q", "num_round=1"], check=False)
        assert proc.returncode != 0 and "feature_types" in proc.stderr, proc.stderr
        proc = t.run([t.treering_bin(), "/dev/null", "data=" + path, "tree_method=hist",
                      "feature_types=c,x", "num_round=1"], check=False)
        assert proc.returncode != 0 and "feature_types" in proc.stderr, proc.stderr
        proc = t.run([t.treering_bin(), "/dev/null", "data=" + path, "tree_method=exact",
                      "feature_types=c,c", "num_round=1"], check=False)
        assert proc.returncode != 0 and "exact" in proc.stderr, proc.stderr


if __name__ == "__main__":
    t.need_xgboost_python()
    t.main([test_trees_and_predictions_equal_xgboost, test_models_cross_load,
            test_dumps_equal_xgboost, test_two_workers_equal_one,
            test_invalid_categories_are_errors])
