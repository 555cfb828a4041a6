"""Large dense inplace_predict batches, which the library predicts a block of 65536 rows at a
time (capi/src/predict_inplace.cc): the same floats as one DMatrix prediction and as
python3-xgboost 1.7.4's inplace_predict, across block edges, with base_margin, strict_shape,
margins, iteration ranges and Fortran-order float64 input."""
import numpy as np
import pytest

import treering

ROWS = 2 * 65536 + 7  # two full blocks and a partial one


@pytest.fixture(scope="module")
def model():
    rng = np.random.default_rng(3)
    x = rng.random((ROWS, 6)).astype(np.float32)
    x[x < 0.05] = np.nan
    y = rng.integers(0, 3, ROWS)
    params = {"objective": "multi:softprob", "num_class": 3, "max_depth": 3,
              "tree_method": "hist", "nthread": 2}
    bst = treering.train(params, treering.DMatrix(x[:5000], label=y[:5000]), 4)
    return bst, x, rng.random((ROWS, 3)).astype(np.float32)


@pytest.mark.parametrize("kwargs", [{}, {"predict_type": "margin"}, {"strict_shape": True},
                                    {"iteration_range": (1, 3)}])
def test_blocks_equal_one_dmatrix_prediction(model, kwargs):
    bst, x, _ = model
    got = bst.inplace_predict(x, **kwargs)
    want = bst.predict(treering.DMatrix(x), output_margin=kwargs.get("predict_type") == "margin",
                       strict_shape=kwargs.get("strict_shape", False),
                       iteration_range=kwargs.get("iteration_range", (0, 0)))
    assert got.shape == want.shape == (ROWS, 3)
    np.testing.assert_array_equal(got, want)
    # the rows at a block edge, predicted alone
    np.testing.assert_array_equal(got[65530:65540], bst.inplace_predict(x[65530:65540], **kwargs))


def test_blocks_with_base_margin_and_fortran_order(model):
    bst, x, margin = model
    got = bst.inplace_predict(np.asfortranarray(x.astype(np.float64)), base_margin=margin)
    d = treering.DMatrix(x, base_margin=margin.ravel())
    np.testing.assert_array_equal(got, bst.predict(d))
    with pytest.raises(treering.XGBoostError, match="base_margin has 15 values"):
        bst.inplace_predict(x, base_margin=margin[:5])


def test_blocks_equal_xgboost(model, tmp_path):
    xgboost = pytest.importorskip("xgboost", reason="python3-xgboost 1.7.4 (the peer)")
    bst, x, margin = model
    path = str(tmp_path / "m.json")
    bst.save_model(path)
    peer = xgboost.Booster(model_file=path)
    np.testing.assert_allclose(bst.inplace_predict(x, base_margin=margin),
                               peer.inplace_predict(x, base_margin=margin), rtol=1e-6,
                               atol=1e-7)
