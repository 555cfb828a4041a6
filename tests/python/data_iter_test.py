"""DataIter, QuantileDMatrix and DMatrix(DataIter) against python3-xgboost 1.7.4."""
import os

import numpy as np
import pytest

xgb = pytest.importorskip("xgboost", reason="python3-xgboost 1.7 (the peer) is not installed")
sp = pytest.importorskip("scipy.sparse", reason="python3-scipy is not installed")
import treering as tr  # noqa: E402

HIST = {"tree_method": "hist", "nthread": 1, "max_depth": 4}
COLS, ROWS_PER_BATCH, BATCHES = 8, 250, 4


@pytest.fixture(autouse=True)
def _in_tmp_dir(tmp_path, monkeypatch):
    """xgboost's DMatrix(DataIter) writes external-memory pages into the working directory."""
    monkeypatch.chdir(tmp_path)


def make_batches(seed=1994, batches=BATCHES):
    """The quantile_data_iterator.py demo's batches (data, label, weight), on the host."""
    rng = np.random.RandomState(seed)
    data = [rng.randn(ROWS_PER_BATCH, COLS) for _ in range(batches)]
    labels = [d[:, 0] - 0.5 * d[:, 1] + 0.1 * rng.randn(ROWS_PER_BATCH) for d in data]
    weights = [rng.uniform(size=ROWS_PER_BATCH) for _ in range(batches)]
    return data, labels, weights


def iterator_class(module):
    """The demo's iterator, subclassing `module`.DataIter (as a user would)."""

    class BatchIter(module.DataIter):
        def __init__(self, batches, cache_prefix=None, fail_at=None, **extra):
            self.batches = batches
            self.extra = extra
            self.fail_at = fail_at
            self.it = 0
            self.resets = 0
            super().__init__(cache_prefix=cache_prefix)

        def reset(self):
            self.it = 0
            self.resets += 1

        def next(self, input_data):
            if self.it == len(self.batches[0]):
                return 0
            if self.it == self.fail_at:
                raise KeyError("batch is unreadable")
            data, label, weight = (b[self.it] for b in self.batches)
            input_data(data=data, label=label, weight=weight, **self.extra)
            self.it += 1
            return 1
    return BatchIter


def test_quantile_dmatrix_from_iterator_as_demo():
    batches = make_batches()
    full = [np.concatenate(b) for b in batches]

    def run(m):
        it = iterator_class(m)(batches)
        with_it = m.QuantileDMatrix(it)
        plain = m.DMatrix(full[0], full[1], weight=full[2])
        assert (with_it.num_row(), with_it.num_col()) == (plain.num_row(), plain.num_col())
        booster = m.train(HIST, with_it, num_boost_round=8)
        return booster.predict(with_it), booster.predict(plain), it.resets, with_it
    pa, pa_plain, resets, qa = run(tr)
    pb, pb_plain, _, qb = run(xgb)
    np.testing.assert_allclose(pa, pb, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(pa_plain, pb_plain, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(pa, pa_plain, rtol=1e-6, atol=1e-6)
    assert resets >= 1  # the library resets the iterator, as XGBoost does
    np.testing.assert_allclose(qa.get_label(), qb.get_label())
    np.testing.assert_allclose(qa.get_weight(), qb.get_weight())


def test_ref_and_max_bin():
    rng = np.random.default_rng(5)
    x = rng.normal(size=(600, 5))
    y = (x[:, 0] + 0.3 * rng.normal(size=600) > 0).astype(float)
    xv, yv = x[:200] * 1.1 + 0.01, y[:200]
    params = dict(HIST, objective="binary:logistic", eval_metric="logloss")

    def run(m):
        dtrain = m.QuantileDMatrix(x[200:], label=y[200:], max_bin=48)
        dvalid = m.QuantileDMatrix(xv, label=yv, ref=dtrain)
        hist = {}
        booster = m.train(params, dtrain, 6, evals=[(dtrain, "train"), (dvalid, "valid")],
                          evals_result=hist, verbose_eval=False)
        return booster.predict(dvalid), booster.inplace_predict(xv), hist, dtrain
    (pa, ia, ha, da) = run(tr)
    with xgb.config_context(verbosity=0):  # its "Inconsistent max_bin" warning, each round
        (pb, ib, hb, db) = run(xgb)
    assert da.max_bin == db.max_bin == 48
    # the booster trains with the matrix's 48 bins in both (no max_bin in params)
    np.testing.assert_allclose(ia, ib, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(pa, pb, rtol=1e-6, atol=1e-6)
    for name in ("train", "valid"):
        np.testing.assert_allclose(ha[name]["logloss"], hb[name]["logloss"], rtol=1e-6)
    # 48 bins differ from 256: the matrix's max_bin was used
    full = tr.train(params, tr.DMatrix(x[200:], label=y[200:]), 6)
    assert not np.allclose(full.inplace_predict(xv), ia)


def test_quantile_dmatrix_plain_inputs():
    rng = np.random.default_rng(6)
    dense = rng.normal(size=(300, 4))
    dense[dense < -1] = np.nan
    label = dense[:, 1] > 0
    csr = sp.csr_matrix(np.nan_to_num(np.where(dense > 0, dense, 0)))
    for data in (dense, csr, dense.astype(np.float32)):
        def run(m):
            d = m.QuantileDMatrix(data, label=label, feature_names=list("abcd"))
            b = m.train(HIST, d, 4)
            return (d.num_row(), d.num_col(), d.feature_names), b.inplace_predict(data)
        (sa, pa), (sb, pb) = run(tr), run(xgb)
        assert sa == sb
        np.testing.assert_allclose(pa, pb, rtol=1e-6, atol=1e-6)
    for m in (tr, xgb):
        with pytest.raises(TypeError, match="not supported for data iterator"):
            m.QuantileDMatrix([[1.0, 2.0], [3.0, 4.0]])


def test_dmatrix_from_iterator_in_memory(tmp_path):
    batches = make_batches(seed=7, batches=3)
    full = [np.concatenate(b) for b in batches]
    prefix = os.path.join(tmp_path, "cache")
    with pytest.warns(UserWarning, match="no external memory"):
        dmat = tr.DMatrix(iterator_class(tr)(batches, cache_prefix=prefix))
    assert not os.listdir(tmp_path)  # nothing cached on disk (the working directory too)
    plain = tr.DMatrix(full[0], full[1], weight=full[2])
    assert (dmat.num_row(), dmat.num_col()) == (plain.num_row(), plain.num_col())
    np.testing.assert_array_equal(dmat.get_label(), plain.get_label())
    a = tr.train(HIST, dmat, 5).predict(plain)
    b = tr.train(HIST, plain, 5).predict(plain)
    np.testing.assert_array_equal(a, b)
    # xgboost 1.7 builds the same matrix in external memory: same rows and labels
    peer = xgb.DMatrix(iterator_class(xgb)(batches))
    assert (peer.num_row(), peer.num_col()) == (dmat.num_row(), dmat.num_col())
    np.testing.assert_array_equal(peer.get_label(), dmat.get_label())


def test_user_exceptions_and_refusals():
    batches = make_batches(batches=3)
    for m in (tr, xgb):
        for cls in (m.DMatrix, m.QuantileDMatrix):
            with pytest.raises(KeyError, match="batch is unreadable"):
                cls(iterator_class(m)(batches, fail_at=1))
        with pytest.raises(ValueError, match="data like label should be specified as batch"):
            m.QuantileDMatrix(iterator_class(m)(batches), label=np.zeros(3))
        with pytest.raises(ValueError, match="QuantileDMatrix doesn't cache data"):
            m.QuantileDMatrix(iterator_class(m)(batches, cache_prefix="cache"))
    # a bad batch (label of the wrong length) is the library's error, naming the field
    bad = (batches[0], [np.zeros(3)] * 3, batches[2])
    with pytest.raises(tr.XGBoostError, match="label"):
        tr.QuantileDMatrix(iterator_class(tr)(bad))


def test_pandas_and_categorical_batches():
    pd = pytest.importorskip("pandas", reason="python3-pandas is not installed")
    rng = np.random.default_rng(8)
    frames = []
    for _ in range(3):
        frames.append(pd.DataFrame({
            "num": rng.normal(size=100),
            "cat": pd.Categorical(rng.choice(["a", "b", "c"], size=100),
                                  categories=["a", "b", "c"])}))
    labels = [(f["cat"] == "b").to_numpy() * 1.0 + f["num"].to_numpy() for f in frames]
    weights = [np.ones(100)] * 3
    params = dict(HIST, max_cat_to_onehot=1)

    def run(m):
        d = m.QuantileDMatrix(iterator_class(m)((frames, labels, weights)),
                              enable_categorical=True)
        whole = pd.concat(frames, ignore_index=True)
        b = m.train(params, d, 5)
        return d.feature_names, d.feature_types, b.inplace_predict(whole)
    (na, ta, pa), (nb, tb, pb) = run(tr), run(xgb)
    assert (na, ta) == (nb, tb) == (["num", "cat"], ["float", "c"])
    np.testing.assert_allclose(pa, pb, rtol=1e-6, atol=1e-6)


def test_device_quantile_dmatrix_deprecated():
    x = np.arange(20.0).reshape(10, 2)
    with pytest.warns(FutureWarning, match="Please use `QuantileDMatrix` instead."):
        d = tr.DeviceQuantileDMatrix(x, label=np.arange(10.0))
    assert d.num_row() == 10 and isinstance(d, tr.QuantileDMatrix)
    assert tr.core.DataIter is tr.DataIter  # the demos use xgboost.core.DataIter
