"""DMatrix and Booster of treering's Python package against python3-xgboost 1.7.4."""
import json
import os
import pickle
import tempfile
import warnings

import numpy as np
import scipy.sparse as sp

from peer_common import assert_close, load_modules, make_data, run_cases

tr, xg = load_modules()
warnings.simplefilter("ignore", UserWarning)  # ntree_limit's deprecation, in both
PARAMS = {"objective": "binary:logistic", "max_depth": 3, "eta": 0.3, "nthread": 1,
          "tree_method": "hist", "seed": 0}


def both(fn):
    return fn(tr), fn(xg)


def train_pair(params=PARAMS, rounds=6, **dkw):
    x, y = make_data(**dkw)

    def run(xgb):
        d = xgb.DMatrix(x, label=y)
        return xgb.train(params, d, rounds, verbose_eval=False), d
    return run(tr), run(xg), x, y


def test_dmatrix_shapes():
    x, y = make_data()
    for data in (x, np.asfortranarray(x), x.astype(np.float32), sp.csr_matrix(np.nan_to_num(x)),
                 sp.csc_matrix(np.nan_to_num(x)), np.nan_to_num(x).tolist()):
        a, b = both(lambda m: m.DMatrix(data, label=y))
        assert (a.num_row(), a.num_col()) == (b.num_row(), b.num_col())
        assert a.num_nonmissing() == b.num_nonmissing(), (a.num_nonmissing(),
                                                          b.num_nonmissing())
        assert_close(a.get_label(), b.get_label(), "label")
    a, b = both(lambda m: m.DMatrix(np.nan_to_num(x), missing=0.0))
    assert a.num_nonmissing() == b.num_nonmissing()
    a, b = both(lambda m: m.DMatrix(x))
    ca, cb = a.get_data(), b.get_data()
    assert ca.shape == cb.shape and (ca != cb).nnz == 0, "get_data"
    assert_close(ca.indptr, cb.indptr, "get_data indptr")


def test_array_layouts():
    x, y = make_data(rows=100, cols=8)
    layouts = {"strided": x[::2, ::2], "reversed": x[::-1], "int32":
               (np.nan_to_num(x) * 10).astype(np.int32), "float16": x.astype(np.float16)}
    for name, data in layouts.items():
        def run(m):
            d = m.DMatrix(data, label=y[:data.shape[0]])
            b = m.train({"max_depth": 2, "nthread": 1}, d, 2, verbose_eval=False)
            return (d.num_row(), d.num_col(), d.num_nonmissing()), b.predict(d), \
                b.inplace_predict(data)
        (sa, pa, ia), (sb, pb, ib) = run(tr), run(xg)
        assert sa == sb, (name, sa, sb)
        assert_close(pa, pb, name)
        assert_close(ia, ib, name + " inplace")
        assert_close(ia, pa, name + " inplace vs DMatrix")


def test_meta_info():
    x, y = make_data(rows=40)
    w = np.linspace(0.5, 1.5, 40)
    fw = np.arange(1, 7, dtype=np.float64)

    def run(m):
        d = m.DMatrix(x, label=y, weight=w, base_margin=np.full(40, 0.1),
                      feature_names=[f"c{i}" for i in range(6)], feature_types=["q"] * 6,
                      feature_weights=fw)
        s = d.slice([3, 1, 2])
        return d, s
    (a, sa), (b, sb) = run(tr), run(xg)
    for field in ("label", "weight", "base_margin", "feature_weights"):
        assert_close(a.get_float_info(field), b.get_float_info(field), field)
    assert a.feature_names == b.feature_names and a.feature_types == b.feature_types
    assert_close(sa.get_label(), sb.get_label(), "slice label")
    assert_close(sa.get_weight(), sb.get_weight(), "slice weight")
    assert sa.num_row() == 3 and sa.feature_names == sb.feature_names
    ga, gb = both(lambda m: m.DMatrix(x, label=y, group=[10, 30]))
    assert_close(ga.get_uint_info("group_ptr"), gb.get_uint_info("group_ptr"), "group_ptr")
    qa, qb = both(lambda m: m.DMatrix(x, label=y, qid=np.repeat([1, 2, 3, 4], 10)))
    assert_close(qa.get_uint_info("group_ptr"), qb.get_uint_info("group_ptr"), "qid")


def test_predict_kinds():
    (ba, da), (bb, db), _, _ = train_pair()
    kinds = [{}, {"output_margin": True}, {"pred_leaf": True}, {"pred_contribs": True},
             {"pred_contribs": True, "approx_contribs": True}, {"pred_interactions": True},
             {"iteration_range": (1, 4)}, {"strict_shape": True},
             {"pred_leaf": True, "strict_shape": True},
             {"pred_contribs": True, "strict_shape": True}]
    for kw in kinds:
        assert_close(ba.predict(da, **kw), bb.predict(db, **kw), f"predict {kw}", rtol=1e-5,
                     atol=1e-5)


def test_multiclass_and_regression():
    for params, kind in ((dict(PARAMS, objective="multi:softprob", num_class=3), "multi"),
                         (dict(PARAMS, objective="reg:squarederror"), "reg")):
        (ba, da), (bb, db), x, _ = train_pair(params, kind=kind)
        assert_close(ba.predict(da), bb.predict(db), params["objective"])
        assert_close(ba.predict(da, output_margin=True, strict_shape=True),
                     bb.predict(db, output_margin=True, strict_shape=True), "strict margin")
        assert_close(ba.inplace_predict(x), bb.inplace_predict(x), "inplace")


def test_inplace_predict():
    (ba, da), (bb, db), x, _ = train_pair()
    assert_close(ba.inplace_predict(x), ba.predict(da), "inplace vs DMatrix")
    assert_close(ba.inplace_predict(x), bb.inplace_predict(x), "inplace")
    assert_close(ba.inplace_predict(x, predict_type="margin", iteration_range=(0, 3)),
                 bb.inplace_predict(x, predict_type="margin", iteration_range=(0, 3)),
                 "inplace margin range")
    csr = sp.csr_matrix(np.nan_to_num(x, nan=0.0))
    assert_close(ba.inplace_predict(csr), bb.inplace_predict(csr), "inplace csr")
    bm = np.full(x.shape[0], 0.5)
    assert_close(ba.inplace_predict(x, base_margin=bm), bb.inplace_predict(x, base_margin=bm),
                 "inplace base_margin")


def test_custom_objective():
    x, y = make_data()

    def logregobj(preds, dtrain):
        labels = dtrain.get_label()
        p = 1.0 / (1.0 + np.exp(-preds))
        return p - labels, p * (1.0 - p)

    def run(m):
        d = m.DMatrix(x, label=y)
        res = {}
        b = m.train({"max_depth": 2, "nthread": 1, "eval_metric": "rmse"}, d, 5, obj=logregobj,
                    evals=[(d, "train")], evals_result=res, verbose_eval=False)
        return b.predict(d, output_margin=True), res
    (pa, ra), (pb, rb) = run(tr), run(xg)
    assert_close(pa, pb, "custom objective margins")
    assert_close(ra["train"]["rmse"], rb["train"]["rmse"], "custom objective history")


def test_model_files_cross_load():
    (ba, da), (bb, db), _, _ = train_pair()
    with tempfile.TemporaryDirectory() as tmp:
        for ext in ("json", "ubj", "model"):
            fa, fb = os.path.join(tmp, "a." + ext), os.path.join(tmp, "b." + ext)
            ba.save_model(fa)
            bb.save_model(fb)
            ours = tr.Booster(model_file=fb)
            theirs = xg.Booster(model_file=fa)
            assert_close(ours.predict(da), bb.predict(db), f"treering loads xgboost .{ext}")
            assert_close(theirs.predict(db), ba.predict(da), f"xgboost loads treering .{ext}")
    for fmt in ("json", "ubj", "deprecated"):
        raw = ba.save_raw(fmt)
        assert isinstance(raw, bytearray)
        assert_close(xg.Booster(model_file=raw).predict(db), bb.predict(db), f"save_raw {fmt}")
        assert_close(tr.Booster(model_file=bb.save_raw(fmt)).predict(da), ba.predict(da),
                     f"load raw {fmt}")


def test_pickle_copy_slice():
    (ba, da), (bb, db), _, _ = train_pair()
    ba.set_attr(note="kept")
    back = pickle.loads(pickle.dumps(ba))
    assert_close(back.predict(da), ba.predict(da), "pickle")
    assert back.attr("note") == "kept" and back.best_iteration == ba.best_iteration
    assert_close(ba.copy().predict(da), ba.predict(da), "copy")
    assert_close(ba[1:4].predict(da), bb[1:4].predict(db), "slice 1:4")
    assert_close(ba[2].predict(da), bb[2].predict(db), "slice [2]")
    assert_close(ba[::2].predict(da), bb[::2].predict(db), "slice ::2")
    assert_close(ba[2:].predict(da), bb[2:].predict(db), "slice 2:")
    assert_close(ba[:3].predict(da), bb[:3].predict(db), "slice :3")
    loaded = tr.Booster(model_file=ba.save_raw("json"))
    assert (loaded.best_iteration, loaded.best_ntree_limit) == (5, 6)
    assert_close(ba.predict(da, ntree_limit=3), bb.predict(db, ntree_limit=3), "ntree_limit")
    assert len(list(ba)) == 6 and ba[1:4].num_boosted_rounds() == 3
    for bad in (slice(4, 2), (1, 2), "x", slice(10, 20)):
        names = set()
        for b in (ba, bb):
            try:
                b[bad]
            except (ValueError, TypeError, NotImplementedError, IndexError) as err:
                names.add(type(err).__name__)
        assert len(names) == 1, (bad, names)


def same_trees(ours, theirs):
    def walk(a, b, where):
        if isinstance(a, dict):
            assert isinstance(b, dict) and a.keys() == b.keys(), where
            for key in a:
                walk(a[key], b[key], where + "/" + key)
        elif isinstance(a, list):
            assert isinstance(b, list) and len(a) == len(b), where
            for i, (x, y) in enumerate(zip(a, b)):
                walk(x, y, f"{where}[{i}]")
        elif isinstance(a, float):
            assert_close(a, b, where, rtol=1e-4, atol=1e-6)
        else:
            assert a == b, (where, a, b)
    walk([json.loads(t) for t in ours], [json.loads(t) for t in theirs], "dump")


def test_introspection():
    (ba, da), (bb, db), _, _ = train_pair()
    assert ba.num_boosted_rounds() == bb.num_boosted_rounds() == 6
    assert ba.num_features() == bb.num_features() == 6
    assert ba.get_dump() == bb.get_dump()
    assert ba.get_dump(dump_format="json") == bb.get_dump(dump_format="json")
    # Gains are sums of float32 statistics: the last digits depend on summation order.
    same_trees(ba.get_dump(with_stats=True, dump_format="json"),
               bb.get_dump(with_stats=True, dump_format="json"))
    for kind in ("weight", "gain", "cover", "total_gain", "total_cover"):
        sa, sb = ba.get_score(importance_type=kind), bb.get_score(importance_type=kind)
        assert sa.keys() == sb.keys(), kind
        assert_close([sa[k] for k in sa], [sb[k] for k in sa], kind, rtol=1e-4)
    assert ba.get_fscore() == bb.get_fscore()
    assert ba.attributes() == bb.attributes(), (ba.attributes(), bb.attributes())
    ba.set_param({"eta": 0.1})
    ba.set_attr(a="1", b="2")
    ba.set_attr(a=None)
    assert ba.attributes().get("b") == "2" and ba.attr("a") is None


def test_feature_names_validation():
    x, y = make_data()
    names = [f"f_{i}" for i in range(6)]

    def run(m):
        d = m.DMatrix(x, label=y, feature_names=names)
        b = m.train(PARAMS, d, 2, verbose_eval=False)
        other = m.DMatrix(x, feature_names=[f"g_{i}" for i in range(6)])
        errs = []
        for data in (other, m.DMatrix(x)):
            try:
                b.predict(data)
            except ValueError as err:
                errs.append(str(err).splitlines()[0])
        b.predict(other, validate_features=False)
        return b.feature_names, errs, b.get_dump()[0]
    ours, theirs = run(tr), run(xg)
    assert ours == theirs, (ours, theirs)


def test_bad_input_names_the_argument():
    x, y = make_data(rows=20)
    cases = {
        "ragged list": (lambda: tr.DMatrix([[1.0, 2.0], [3.0]]), ValueError, ""),
        "strings": (lambda: tr.DMatrix(np.array([["a", "b"]])), ValueError, "data"),
        "NaN label": (lambda: tr.DMatrix(x, label=np.full(20, np.nan)), tr.XGBoostError,
                      "label"),
        "label length": (lambda: tr.DMatrix(x, label=np.ones(3)), tr.XGBoostError, "label"),
        "weight length": (lambda: tr.DMatrix(x, weight=np.ones(3)), tr.XGBoostError,
                          "weight"),
        "unknown parameter": (lambda: tr.train({"colour": "red"}, tr.DMatrix(x, label=y), 1,
                                               verbose_eval=False), tr.XGBoostError,
                              "colour"),
        "data type": (lambda: tr.DMatrix(object()), TypeError, "data"),
    }
    booster = tr.train(PARAMS, tr.DMatrix(x, label=y), 1, verbose_eval=False)
    wide = np.hstack([x, x])
    cases["too many columns"] = (lambda: booster.predict(tr.DMatrix(wide)), tr.XGBoostError,
                                 "")
    cases["inplace columns"] = (lambda: booster.inplace_predict(wide), ValueError,
                                "Feature shape mismatch")
    for name, (call, exc, needle) in cases.items():
        try:
            call()
        except exc as err:
            assert needle in str(err), (name, str(err))
        else:
            raise AssertionError(f"{name}: no {exc.__name__}")


def test_categorical_feature_types():
    rng = np.random.default_rng(1)
    x = np.column_stack([rng.integers(0, 5, 300).astype(float), rng.normal(size=300)])
    y = (np.isin(x[:, 0], [1, 3]) ^ (x[:, 1] > 0.5)).astype(float)

    def run(m):
        d = m.DMatrix(x, label=y, feature_types=["c", "q"], enable_categorical=True)
        b = m.train({"max_depth": 3, "nthread": 1, "objective": "binary:logistic",
                     "tree_method": "hist", "max_cat_to_onehot": 1}, d, 3, verbose_eval=False)
        return b.predict(d), b.inplace_predict(x), b.get_dump(), b.feature_types
    (pa, ia, da, ta), (pb, ib, db, tb) = run(tr), run(xg)
    assert_close(pa, pb, "categorical")
    assert_close(ia, ib, "categorical inplace")
    assert da == db and ta == tb == ["c", "q"]
    assert ":{" in da[0], "a categorical split"


def test_errors():
    x, y = make_data(rows=20)
    for m in (tr, xg):
        d = m.DMatrix(x, label=y)
        for bad in (lambda: d.set_label(np.ones(7)),
                    lambda: m.train({"objective": "no:such"}, d, 1, verbose_eval=False),
                    lambda: m.Booster(model_file=bytearray(b"not a model"))):
            try:
                bad()
            except m.core.XGBoostError as err:
                assert str(err), "an empty message"
            else:
                raise AssertionError(f"{m.__name__}: no XGBoostError")
    try:
        tr.DMatrix(x, label=np.ones(7))
    except tr.core.XGBoostError as err:
        assert "label" in str(err), str(err)
    b = tr.train(PARAMS, tr.DMatrix(x, label=y), 1, verbose_eval=False)
    for m_b in (b, xg.train(PARAMS, xg.DMatrix(x, label=y), 1, verbose_eval=False)):
        try:
            m_b.inplace_predict(x[:, :3])
        except ValueError as err:
            assert "Feature shape mismatch" in str(err)


def test_file_uri():
    x, y = make_data(rows=50, nan_fraction=0.3)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "train.libsvm")
        with open(path, "w", encoding="utf-8") as out:
            for row, label in zip(x, y):
                cells = " ".join(f"{j}:{v:.6g}" for j, v in enumerate(row) if not np.isnan(v))
                out.write(f"{label:g} {cells}\n")
        for uri in (path, path + "?format=libsvm"):
            a, b = both(lambda m: m.DMatrix(uri, silent=True))
            assert (a.num_row(), a.num_col(), a.num_nonmissing()) == \
                (b.num_row(), b.num_col(), b.num_nonmissing())
            assert_close(a.get_label(), b.get_label(), "libsvm labels")
            ba = tr.train(PARAMS, a, 3, verbose_eval=False)
            bb = xg.train(PARAMS, b, 3, verbose_eval=False)
            assert_close(ba.predict(a), bb.predict(b), "trained from a libsvm file")
        # CSV: treering's CSV rows always carry a label (column 0 unless label_column).
        csv = os.path.join(tmp, "train.csv")
        np.savetxt(csv, np.column_stack([y, np.nan_to_num(x)]), delimiter=",", fmt="%.6g")
        a = tr.DMatrix(csv + "?format=csv&label_column=0")
        b = xg.DMatrix(csv + "?format=csv&label_column=0")
        assert (a.num_row(), a.num_col()) == (b.num_row(), b.num_col())
        assert_close(a.get_label(), b.get_label(), "csv labels")


def test_weights_margin_ranking():
    x, y = make_data()
    w = np.linspace(0.2, 2.0, len(y))
    margin = np.linspace(-1, 1, len(y))

    def run(m):
        d = m.DMatrix(x, label=y, weight=w, base_margin=margin)
        b = m.train(PARAMS, d, 4, verbose_eval=False)
        plain = m.DMatrix(x)
        return b.predict(d), b.predict(plain), b.predict(d, output_margin=True)
    for ours, theirs in zip(run(tr), run(xg)):
        assert_close(ours, theirs, "weights + base_margin", rtol=1e-5)
    yr = np.floor(np.abs(np.nan_to_num(x[:, 0])) * 2).clip(0, 3)

    def rank(m):
        d = m.DMatrix(x, label=yr, qid=np.repeat(np.arange(10), 30))
        res = {}
        b = m.train({"objective": "rank:pairwise", "eval_metric": "ndcg@5", "nthread": 1,
                     "max_depth": 3}, d, 4, evals=[(d, "train")], evals_result=res,
                    verbose_eval=False)
        return b.predict(d), res["train"]["ndcg@5"]
    for ours, theirs in zip(rank(tr), rank(xg)):
        assert_close(ours, theirs, "rank:pairwise with qid", rtol=1e-5)


def test_error_messages_come_from_the_library():
    x, y = make_data(rows=20)
    d = tr.DMatrix(x)
    try:
        d.set_float_info("label", np.ones(7))
    except tr.XGBoostError as err:
        msg = str(err)
    else:
        raise AssertionError("no error")
    assert msg == tr.core._LIB.XGBGetLastError().decode(), msg
    assert "label" in msg and "7" in msg, msg
    assert isinstance(tr.XGBoostError("x"), ValueError)  # as XGBoost's, a ValueError
    try:
        tr.Booster({"no_such_param": 1}, [tr.DMatrix(x, label=y)]).update(
            tr.DMatrix(x, label=y), 0)
    except tr.XGBoostError as err:
        assert "no_such_param" in str(err), str(err)
    else:
        raise AssertionError("unknown parameter accepted")


def test_names_fmap_multiclass_margin_dart():
    x, y = make_data(kind="multi")
    names = [f"feat{i}" for i in range(6)]

    def run(m):
        r = {}
        d = m.DMatrix(x, label=y, feature_names=names,
                      base_margin=np.tile([0.1, 0.2, 0.3], (len(y), 1)))
        b = m.train({"objective": "multi:softprob", "num_class": 3, "max_depth": 3,
                     "nthread": 1}, d, 3, verbose_eval=False)
        r["pred"] = b.predict(d)
        r["gain"] = b.get_score(importance_type="gain")
        r["names"] = b.feature_names
        r["pickled names"] = pickle.loads(pickle.dumps(b)).feature_names
        with tempfile.TemporaryDirectory() as tmp:
            fmap = os.path.join(tmp, "fmap.txt")
            with open(fmap, "w", encoding="utf-8") as out:
                out.write("".join(f"{i}\tq{i}\tq\n" for i in range(6)))
            r["dump with fmap"] = b.get_dump(fmap=fmap)[0]
            b.save_model(os.path.join(tmp, "m.json"))
            r["loaded names"] = m.Booster(model_file=os.path.join(tmp, "m.json")).feature_names
        d.feature_names = None
        r["cleared names"] = d.feature_names
        r["types"] = m.DMatrix(x, feature_types="q").feature_types
        dd = m.DMatrix(x, label=(y > 0).astype(float))
        r["dart"] = m.train({"booster": "dart", "rate_drop": 0.3, "max_depth": 2, "nthread": 1,
                             "objective": "binary:logistic", "seed": 1}, dd, 4,
                            verbose_eval=False).predict(dd)
        return r
    ours, theirs = run(tr), run(xg)
    for key, value in ours.items():
        if isinstance(value, np.ndarray):
            assert_close(value, theirs[key], key, rtol=1e-5)
        elif isinstance(value, dict):
            assert value.keys() == theirs[key].keys(), key
            assert_close(list(value.values()), list(theirs[key].values()), key, rtol=1e-4)
        else:
            assert value == theirs[key], (key, value, theirs[key])


run_cases([(name, fn) for name, fn in sorted(globals().items())
           if name.startswith("test_") and callable(fn)])
