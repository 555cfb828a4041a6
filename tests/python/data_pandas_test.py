"""pandas input to treering's DMatrix / inplace_predict against python3-xgboost 1.7.4."""
import subprocess
import sys
import warnings

import numpy as np
import pytest

pd = pytest.importorskip("pandas", reason="python3-pandas is not installed")
xgb = pytest.importorskip("xgboost", reason="python3-xgboost 1.7 (the peer) is not installed")
import treering as tr  # noqa: E402

PARAMS = {"objective": "binary:logistic", "max_depth": 3, "nthread": 1, "tree_method": "hist"}


def mixed_frame(rows=300, seed=0):
    """Every dtype family 1.7 maps: floats, ints, bool, nullable Int64/Float32/boolean."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(rows, 3))
    x[rng.random(size=x.shape) < 0.1] = np.nan
    ints = rng.integers(0, 5, size=rows)
    nullable = pd.array(rng.integers(0, 9, size=rows), dtype="Int64")
    nullable[rng.random(size=rows) < 0.2] = pd.NA
    flags = pd.array(rng.random(size=rows) < 0.5, dtype="boolean")
    flags[rng.random(size=rows) < 0.1] = pd.NA
    frame = pd.DataFrame({
        "f64": x[:, 0], "f32": x[:, 1].astype(np.float32), "i8": ints.astype(np.int8),
        "u16": ints.astype(np.uint16), "flag": rng.random(size=rows) < 0.3,
        "nullable_int": nullable, "nullable_float": pd.array(x[:, 2], dtype="Float32"),
        "nullable_bool": flags})
    y = (x[:, 0] + 0.3 * ints - 0.5 + 0.2 * rng.normal(size=rows) > 0).astype(float)
    return frame, y


def both(fn):
    return fn(tr), fn(xgb)


def test_import_does_not_load_pandas():
    code = ("import sys, treering; assert 'pandas' not in sys.modules, 'pandas imported'; "
            "print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=False)
    assert out.returncode == 0 and "ok" in out.stdout, out.stderr


def test_numeric_frame_names_types_and_predictions():
    frame, y = mixed_frame()
    (da, ba), (db, bb) = both(lambda m: (lambda d: (d, m.train(PARAMS, d, 5)))(
        m.DMatrix(frame, label=y)))
    assert da.feature_names == db.feature_names == list(frame.columns)
    assert da.feature_types == db.feature_types
    assert da.feature_types == ["float", "float", "int", "int", "i", "int", "float", "i"]
    assert da.num_nonmissing() == db.num_nonmissing()
    np.testing.assert_allclose(da.get_data().toarray(), db.get_data().toarray())
    np.testing.assert_allclose(ba.predict(da), bb.predict(db), rtol=1e-6, atol=1e-6)
    assert ba.feature_names == bb.feature_names
    np.testing.assert_allclose(ba.inplace_predict(frame), bb.inplace_predict(frame),
                               rtol=1e-6, atol=1e-6)
    # the model's names validate a frame: reordered columns are refused by both
    for m, b in ((tr, ba), (xgb, bb)):
        with pytest.raises(ValueError, match="feature_names mismatch"):
            b.predict(m.DMatrix(frame[frame.columns[::-1]]))


def test_categorical_training_equal():
    rng = np.random.default_rng(1)
    rows = 400
    colour = pd.Categorical(rng.choice(["red", "green", "blue", "grey"], size=rows))
    colour[rng.random(size=rows) < 0.1] = np.nan  # code -1 -> missing
    frame = pd.DataFrame({"colour": colour, "size": rng.normal(size=rows),
                          "shape": pd.Categorical(rng.choice(list("abc"), size=rows))})
    y = ((np.asarray(frame["colour"]) == "red") * 1.0 + frame["size"]
         + 0.1 * rng.normal(size=rows)).to_numpy()
    params = {"tree_method": "hist", "max_depth": 3, "nthread": 1, "max_cat_to_onehot": 1}

    def run(m):
        d = m.DMatrix(frame, label=y, enable_categorical=True)
        return d, m.train(params, d, 6)
    (da, ba), (db, bb) = run(tr), run(xgb)
    assert da.feature_types == db.feature_types == ["c", "float", "c"]
    assert da.num_nonmissing() == db.num_nonmissing() == 3 * rows - np.isnan(
        frame["colour"].cat.codes.replace(-1, np.nan)).sum()
    np.testing.assert_allclose(ba.predict(da), bb.predict(db), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(ba.inplace_predict(frame), bb.inplace_predict(frame),
                               rtol=1e-6, atol=1e-6)
    assert ba.feature_types == ["c", "float", "c"]


def test_category_without_enable_categorical_message():
    frame = pd.DataFrame({"t": [1, 2], "u": pd.Categorical(["x", "y"]), "s": ["a", "b"]})
    messages = []
    for m in (tr, xgb):
        with pytest.raises(ValueError) as err:
            m.DMatrix(frame)
        messages.append(str(err.value))
    assert messages[0] == messages[1]
    assert "Invalid columns:u: category, s: object" in messages[0]
    assert "`enable_categorical` must be set to `True`" in messages[0]
    # object columns stay refused with enable_categorical, naming the column (1.7 lists
    # the category column too)
    for m in (tr, xgb):
        with pytest.raises(ValueError, match="Invalid columns:u: category, s: object"):
            m.DMatrix(frame, enable_categorical=True)


def test_sparse_columns_and_column_names():
    rng = np.random.default_rng(2)
    dense = rng.normal(size=(50, 2))
    frame = pd.DataFrame({"a": dense[:, 0],
                          "b": pd.arrays.SparseArray(np.where(dense[:, 1] > 0, dense[:, 1],
                                                              np.nan)),
                          7: np.arange(50)})
    (da, db) = both(lambda m: m.DMatrix(frame))
    assert da.feature_names == db.feature_names == ["a", "b", "7"]
    assert da.feature_types == db.feature_types == ["float", "float", "int"]
    assert da.num_nonmissing() == db.num_nonmissing()
    multi = pd.DataFrame(dense, columns=pd.MultiIndex.from_tuples([("x", 1), ("y", 2)]))
    assert tr.DMatrix(multi).feature_names == xgb.DMatrix(multi).feature_names == ["x 1", "y 2"]
    # feature_names given by the caller win over the columns'
    assert tr.DMatrix(frame, feature_names=["p", "q", "r"]).feature_names == ["p", "q", "r"]


def test_series_as_data_and_meta():
    rng = np.random.default_rng(3)
    frame = pd.DataFrame({"a": rng.normal(size=80), "b": rng.normal(size=80)})
    y = pd.Series((frame["a"] > 0).astype(int))
    w = pd.Series(rng.uniform(0.5, 2.0, size=80))
    margin = pd.Series(rng.normal(size=80) * 0.1)
    label_frame = pd.DataFrame({"target": y})

    def run(m):
        d = m.DMatrix(frame, label=label_frame, weight=w, base_margin=margin)
        b = m.train(PARAMS, d, 3)
        return d, b.predict(d)
    (da, pa), (db, pb) = run(tr), run(xgb)
    np.testing.assert_array_equal(da.get_label(), db.get_label())
    np.testing.assert_allclose(da.get_weight(), db.get_weight())
    np.testing.assert_allclose(da.get_base_margin(), db.get_base_margin())
    np.testing.assert_allclose(pa, pb, rtol=1e-6, atol=1e-6)
    one = pd.Series(rng.normal(size=10))
    sa, sb = both(lambda m: m.DMatrix(one))
    assert (sa.num_row(), sa.num_col(), sa.feature_names) == (10, 1, None) == (
        sb.num_row(), sb.num_col(), sb.feature_names)
    for m in (tr, xgb):
        with pytest.raises(ValueError, match=r"Invalid shape: \(80, 2\) for weight"):
            m.DMatrix(frame, weight=frame)


def test_qid_series_and_nullable_label():
    rng = np.random.default_rng(4)
    frame = pd.DataFrame({"a": rng.normal(size=60), "b": rng.normal(size=60)})
    qid = pd.Series(np.repeat(np.arange(6), 10))
    rel = pd.Series(rng.integers(0, 3, size=60))
    params = {"objective": "rank:pairwise", "nthread": 1, "tree_method": "hist"}

    def run(m):
        d = m.DMatrix(frame, label=rel, qid=qid)
        return m.train(params, d, 3).predict(d), d.get_uint_info("group_ptr")
    (pa, ga), (pb, gb) = run(tr), run(xgb)
    np.testing.assert_array_equal(ga, gb)
    np.testing.assert_allclose(pa, pb, rtol=1e-6, atol=1e-6)
    with pytest.raises(ValueError, match="Either one of `group` or `qid`"):
        tr.DMatrix(frame, qid=qid, group=[60])


def test_frame_is_not_modified():
    frame = pd.DataFrame({"c": pd.Categorical(["a", None, "b"]),
                          "n": pd.array([1, None, 2], dtype="Int64")})
    before = frame.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no pandas SettingWithCopy/Performance warnings
        tr.DMatrix(frame, enable_categorical=True)
    pd.testing.assert_frame_equal(frame, before)
