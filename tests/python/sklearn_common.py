"""Shared set-up of the scikit-learn estimator tests: both packages and small data sets.

Each test fits the same estimator with the same data and parameters through `treering` and
through Debian's python3-xgboost 1.7.4 (the peer) and compares. Module-level
importorskip makes a whole file skip (run_pytest.py turns that into exit 77) when the peer
or scikit-learn is missing.
"""
import numpy as np
import pytest

sklearn = pytest.importorskip("sklearn", reason="scikit-learn (python3-sklearn) is needed")
xgb = pytest.importorskip("xgboost", reason="python3-xgboost 1.7.4 (the peer) is needed")
if not xgb.__version__.startswith("1.7"):
    pytest.skip(f"the peer is xgboost {xgb.__version__}, not 1.7", allow_module_level=True)

import treering as tr  # noqa: E402  (after the skips: the peer defines what is compared)

# The same trees need the same thread count (docs/learner.md) and the same tree method
# (XGBoost's "auto" picks exact on small data, treering's grows hist).
SAME = {"n_jobs": 1, "tree_method": "hist"}


def make_data(rows=300, cols=6, seed=0, kind="binary", nan_fraction=0.1):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(rows, cols))
    score = x[:, 0] - 0.5 * x[:, 1] + 0.25 * x[:, 2] * x[:, 3]
    x[rng.random(size=x.shape) < nan_fraction] = np.nan
    if kind == "binary":
        y = (score + 0.3 * rng.normal(size=rows) > 0).astype(np.int64)
    elif kind == "multi":
        y = np.digitize(score, [-0.5, 0.5]).astype(np.int64)
    elif kind == "rank":
        y = np.clip(np.round(score + 1.5), 0, 4).astype(np.int64)
    else:
        y = score + 0.1 * rng.normal(size=rows)
    return x, y


def close(ours, theirs, what, tol=1e-6):
    ours, theirs = np.asarray(ours), np.asarray(theirs)
    assert ours.shape == theirs.shape, f"{what}: shape {ours.shape} vs {theirs.shape}"
    np.testing.assert_allclose(ours, theirs, rtol=tol, atol=tol, err_msg=what)


def both(cls_name, **params):
    """(treering estimator, xgboost estimator) of the same class and parameters."""
    return getattr(tr, cls_name)(**params), getattr(xgb, cls_name)(**params)


def params_equal(ours, theirs):
    """get_params() dicts equal, with NaN == NaN (the `missing` default)."""
    assert ours.keys() == theirs.keys(), set(ours) ^ set(theirs)
    for key, value in ours.items():
        other = theirs[key]
        if isinstance(value, float) and np.isnan(value):
            assert isinstance(other, float) and np.isnan(other), key
        else:
            assert value == other, f"{key}: {value!r} vs xgboost {other!r}"
