"""Dense inplace_predict reads the caller's array straight into the tree walk (no DMatrix copy,
capi/src/predict_inplace.cc PredictDenseDirect): the same floats, bit for bit, as predicting the
rows through a DMatrix (the path inplace_predict took before), and python3-xgboost 1.7.4's
inplace_predict, for float32/float64, C and Fortran order, strided views, integer input, NaN
and a `missing` value, row counts around the 8-row lanes and 64-row blocks, dart and
multi-class models."""
import numpy as np
import pytest

import treering

ROWS = 3000


def make(seed=5, cols=7):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(ROWS, cols)).astype(np.float32)
    x[rng.random(x.shape) < 0.08] = np.nan
    x[rng.random(x.shape) < 0.05] = -1.0  # a value some cases call missing
    return x, rng


@pytest.fixture(scope="module", params=["binary", "multi", "dart"])
def model(request):
    x, rng = make()
    params = {"tree_method": "hist", "max_depth": 5, "nthread": 2, "seed": 1}
    if request.param == "binary":
        params["objective"] = "binary:logistic"
        y = (np.nan_to_num(x[:, 0]) + rng.normal(size=ROWS) * 0.3 > 0).astype(np.float32)
    elif request.param == "multi":
        params.update(objective="multi:softprob", num_class=3)
        y = rng.integers(0, 3, ROWS)
    else:
        params.update(objective="reg:squarederror", booster="dart", rate_drop=0.3, seed=7)
        y = np.nan_to_num(x[:, 1]) * 2 + rng.normal(size=ROWS)
    bst = treering.train(params, treering.DMatrix(x, label=y), 12)
    return bst, x


def layouts(x):
    """(name, array) pairs: every input layout the dense path reads differently."""
    wide = np.repeat(x, 2, axis=1)
    return [("f32 C", x), ("f32 F", np.asfortranarray(x)), ("f64 C", x.astype(np.float64)),
            ("f64 F", np.asfortranarray(x.astype(np.float64))), ("f32 strided", wide[:, ::2]),
            ("f32 rows reversed", x[::-1][::-1])]


def reference(bst, x, missing, **kwargs):
    """The DMatrix path (what inplace_predict copied the rows into before)."""
    return bst.predict(treering.DMatrix(np.ascontiguousarray(x, dtype=np.float32),
                                        missing=missing), **kwargs)


@pytest.mark.parametrize("missing", [np.nan, -1.0])
def test_dense_layouts_equal_dmatrix_path(model, missing):
    bst, x = model
    want = reference(bst, x, missing)
    for name, arr in layouts(x):
        got = bst.inplace_predict(arr, missing=missing)
        assert got.shape == want.shape, name
        np.testing.assert_array_equal(got, want, err_msg=name)
    margin = bst.inplace_predict(x, missing=missing, predict_type="margin",
                                 iteration_range=(2, 9))
    np.testing.assert_array_equal(
        margin, reference(bst, x, missing, output_margin=True, iteration_range=(2, 9)))


@pytest.mark.parametrize("rows", [1, 7, 8, 9, 63, 64, 65, 130])
def test_row_counts_at_lane_and_block_edges(model, rows):
    bst, x = model
    part = x[:rows]
    np.testing.assert_array_equal(bst.inplace_predict(part), reference(bst, part, np.nan))
    np.testing.assert_array_equal(bst.inplace_predict(np.asfortranarray(part.astype(np.float64))),
                                  reference(bst, part, np.nan))


def test_integer_input_and_missing_value():
    x, rng = make(seed=9, cols=4)
    xi = np.nan_to_num(x * 10, nan=0).astype(np.int32)
    y = rng.random(ROWS)
    bst = treering.train({"tree_method": "hist", "max_depth": 4, "nthread": 2},
                         treering.DMatrix(xi, label=y, missing=0), 5)
    want = bst.predict(treering.DMatrix(xi.astype(np.float32), missing=0))
    np.testing.assert_array_equal(bst.inplace_predict(xi, missing=0), want)


def test_base_margin_and_bad_width(model):
    bst, x = model
    groups = 3 if bst.inplace_predict(x[:1]).ndim == 2 else 1
    margin = np.linspace(-1, 1, ROWS * groups).astype(np.float32).reshape(ROWS, groups)
    got = bst.inplace_predict(x, base_margin=margin.squeeze())
    want = bst.predict(treering.DMatrix(x, base_margin=margin.ravel()))
    np.testing.assert_array_equal(got, want)
    with pytest.raises(treering.XGBoostError, match="values: 6 columns, the model has 7"):
        bst.inplace_predict(x[:, :6], validate_features=False)


def test_dense_equals_xgboost(model, tmp_path):
    xgboost = pytest.importorskip("xgboost", reason="python3-xgboost 1.7.4 (the peer)")
    bst, x = model
    path = str(tmp_path / "m.json")
    bst.save_model(path)
    peer = xgboost.Booster(model_file=path)
    for missing in (np.nan, -1.0):
        for name, arr in layouts(x):
            np.testing.assert_allclose(bst.inplace_predict(arr, missing=missing),
                                       peer.inplace_predict(arr, missing=missing),
                                       rtol=1e-6, atol=1e-7, err_msg=f"{name} missing={missing}")
