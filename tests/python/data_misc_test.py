"""Stratified / pandas cv, trees_to_dataframe, split histograms and the global
configuration of treering's Python package, against python3-xgboost 1.7.4."""
import os

import numpy as np
import pytest

pd = pytest.importorskip("pandas", reason="python3-pandas is not installed")
xgb = pytest.importorskip("xgboost", reason="python3-xgboost 1.7 (the peer) is not installed")
import treering as tr  # noqa: E402

PARAMS = {"objective": "binary:logistic", "max_depth": 3, "nthread": 1, "tree_method": "hist"}


def classification(rows=240, seed=0, classes=2):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(rows, 5))
    score = x[:, 0] - 0.5 * x[:, 1] + 0.3 * rng.normal(size=rows)
    # unbalanced classes, so that stratified folds differ from plain ones
    y = np.digitize(score, np.quantile(score, [0.8, 0.9][:classes - 1])).astype(float)
    return x, y


@pytest.mark.parametrize("seed", [0, 7])
def test_stratified_cv_equal(seed):
    pytest.importorskip("sklearn", reason="python3-sklearn is not installed")
    x, y = classification()

    def run(m):
        d = m.DMatrix(x, label=y)
        return m.cv(PARAMS, d, num_boost_round=4, nfold=4, stratified=True, seed=seed,
                    metrics=["logloss", "error"], as_pandas=True)
    a, b = run(tr), run(xgb)
    assert isinstance(a, pd.DataFrame)
    assert list(a.columns) == list(b.columns)
    np.testing.assert_allclose(a.to_numpy(), b.to_numpy(), rtol=1e-6, atol=1e-7)
    # stratification changed the folds: plain n-fold gives other numbers
    plain = tr.cv(PARAMS, tr.DMatrix(x, label=y), num_boost_round=4, nfold=4, seed=seed,
                  metrics=["logloss", "error"])
    assert not np.allclose(plain.to_numpy(), a.to_numpy())


def test_stratified_multiclass_and_user_folds_win():
    pytest.importorskip("sklearn", reason="python3-sklearn is not installed")
    x, y = classification(classes=3, seed=2)
    params = dict(PARAMS, objective="multi:softprob", num_class=3)
    folds = [(np.arange(0, 160), np.arange(160, 240)), (np.arange(80, 240), np.arange(0, 80))]

    def run(m, **kw):
        return m.cv(params, m.DMatrix(x, label=y), num_boost_round=3, nfold=3, seed=3,
                    metrics="mlogloss", **kw)
    a, b = run(tr, stratified=True), run(xgb, stratified=True)
    np.testing.assert_allclose(a.to_numpy(), b.to_numpy(), rtol=1e-6)
    a, b = run(tr, stratified=True, folds=folds), run(xgb, stratified=True, folds=folds)
    np.testing.assert_allclose(a.to_numpy(), b.to_numpy(), rtol=1e-6)


def test_cv_as_pandas_false_and_early_stopping_frame():
    x, y = classification(seed=4)
    a = tr.cv(PARAMS, tr.DMatrix(x, label=y), 20, nfold=3, metrics="logloss",
              early_stopping_rounds=2, as_pandas=False)
    b = xgb.cv(PARAMS, xgb.DMatrix(x, label=y), 20, nfold=3, metrics="logloss",
               early_stopping_rounds=2, as_pandas=False)
    assert isinstance(a, dict) and sorted(a) == sorted(b)
    for key in b:
        np.testing.assert_allclose(a[key], b[key], rtol=1e-6)
    frame = tr.cv(PARAMS, tr.DMatrix(x, label=y), 20, nfold=3, metrics="logloss",
                  early_stopping_rounds=2)
    assert list(frame.columns) == ["train-logloss-mean", "train-logloss-std",
                                   "test-logloss-mean", "test-logloss-std"]
    assert len(frame) == len(b["test-logloss-mean"])


def peer_model(tmp_path, params, x, y, rounds=3, **dkw):
    """A model trained by xgboost, loaded into both libraries from one JSON file."""
    booster = xgb.train(params, xgb.DMatrix(x, label=y, **dkw), rounds)
    path = os.path.join(tmp_path, "model.json")
    booster.save_model(path)
    return tr.Booster(model_file=path), xgb.Booster(model_file=path)


def test_trees_to_dataframe_numeric_and_multiclass(tmp_path):
    x, y = classification(classes=3, seed=5)
    for params, names in ((PARAMS, None), (dict(PARAMS, objective="multi:softprob",
                                                 num_class=3), list("abcde"))):
        yy = y if "num_class" in params else (y > 0).astype(float)
        a, b = peer_model(tmp_path, params, x, yy, feature_names=names)
        fa, fb = a.trees_to_dataframe(), b.trees_to_dataframe()
        pd.testing.assert_frame_equal(fa, fb)
        assert list(fa.columns) == ["Tree", "Node", "ID", "Feature", "Split", "Yes", "No",
                                    "Missing", "Gain", "Cover", "Category"]
    fmap = os.path.join(tmp_path, "features.fmap")
    with open(fmap, "w", encoding="utf-8") as out:
        out.write("".join(f"{i}\tcol{i}\tq\n" for i in range(5)))
    pd.testing.assert_frame_equal(a.trees_to_dataframe(fmap), b.trees_to_dataframe(fmap))


def test_trees_to_dataframe_categorical(tmp_path):
    rng = np.random.default_rng(6)
    frame = pd.DataFrame({"c": pd.Categorical(rng.choice(list("pqrs"), size=300)),
                          "v": rng.normal(size=300)})
    y = (frame["c"].isin(["p", "r"])).to_numpy() * 1.0 + 0.2 * frame["v"].to_numpy()
    params = {"tree_method": "hist", "max_depth": 2, "nthread": 1, "max_cat_to_onehot": 1}
    booster = xgb.train(params, xgb.DMatrix(frame, label=y, enable_categorical=True), 2)
    path = os.path.join(tmp_path, "cat.json")
    booster.save_model(path)
    a, b = tr.Booster(model_file=path), xgb.Booster(model_file=path)
    fa, fb = a.trees_to_dataframe(), b.trees_to_dataframe()
    assert any(isinstance(c, list) for c in fb["Category"])  # a categorical split was made
    pd.testing.assert_frame_equal(fa, fb)
    for m in (a, b):
        with pytest.raises(ValueError, match="doesn't support categorical split"):
            m.get_split_value_histogram("c")


def test_split_value_histogram(tmp_path):
    x, y = classification(seed=8)
    a, b = peer_model(tmp_path, dict(PARAMS, max_depth=4), x, (y > 0).astype(float),
                      rounds=8, feature_names=list("abcde"))
    for feature in ("a", "b", "e"):
        for bins in (None, 2, 5, 1000):
            ha = a.get_split_value_histogram(feature, bins=bins)
            hb = b.get_split_value_histogram(feature, bins=bins)
            pd.testing.assert_frame_equal(ha, hb)
            np.testing.assert_array_equal(
                a.get_split_value_histogram(feature, bins=bins, as_pandas=False),
                b.get_split_value_histogram(feature, bins=bins, as_pandas=False))
    assert len(a.get_split_value_histogram("a")) > 1
    assert a.get_split_value_histogram("nope").empty


def test_global_config():
    assert tr.get_config() == xgb.get_config() == {"use_rmm": False, "verbosity": 1}
    tr.set_config(verbosity=2)
    try:
        assert tr.get_config()["verbosity"] == 2
        with tr.config_context(verbosity=0):
            assert tr.get_config()["verbosity"] == 0
            with tr.config_context(verbosity=3, use_rmm=True):
                assert tr.get_config() == {"use_rmm": True, "verbosity": 3}
            assert tr.get_config() == {"use_rmm": False, "verbosity": 0}
        assert tr.get_config()["verbosity"] == 2
        with pytest.raises(RuntimeError):
            with tr.config_context(verbosity=3):
                raise RuntimeError("the block fails")
        assert tr.get_config()["verbosity"] == 2  # restored after an exception too
        tr.set_config(verbosity=None)  # None values are skipped, as in 1.7
        assert tr.get_config()["verbosity"] == 2
        for m in (tr, xgb):
            with pytest.raises(m.core.XGBoostError, match="verbosity"):
                m.set_config(verbosity=7)
            with pytest.raises(m.core.XGBoostError, match="nonsense"):
                m.set_config(nonsense=1)
    finally:
        tr.set_config(verbosity=1, use_rmm=False)
        xgb.set_config(verbosity=1, use_rmm=False)
