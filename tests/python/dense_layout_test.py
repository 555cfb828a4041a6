"""DMatrix from dense arrays that are not C-ordered float32 (Fortran order, strided slices,
other dtypes), which the library reads through a 256-row tile (capi/src/dmatrix_build.cc):
the same matrix as the C-ordered float32 copy, across tile edges, and an infinite value
reported at its own row and column."""
import numpy as np
import pytest

import treering

ROWS = 2 * 256 + 37


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(5)
    x = rng.random((ROWS, 9)).astype(np.float32)
    x[x < 0.1] = np.nan
    y = (rng.random(ROWS) < 0.5).astype(np.float32)
    bst = treering.train({"max_depth": 3, "nthread": 1},
                         treering.DMatrix(x, label=y), 3)
    return x, bst


@pytest.mark.parametrize("layout", ["F32", "F64", "slice", "int32", "slice_F"])
def test_layout_reads_the_same_matrix(data, layout):
    x, bst = data
    arr = {"F32": lambda: np.asfortranarray(x),
           "F64": lambda: np.asfortranarray(x.astype(np.float64)),
           "slice": lambda: np.vstack([x, x])[::2],
           "int32": lambda: np.nan_to_num(x * 10, nan=-1).astype(np.int32),
           "slice_F": lambda: np.asfortranarray(np.hstack([x, x]))[:, ::2]}[layout]()
    missing = -1 if layout == "int32" else None
    ours = treering.DMatrix(arr, missing=missing)
    ref = treering.DMatrix(np.ascontiguousarray(arr, dtype=np.float32), missing=missing)
    assert ours.num_row() == ref.num_row() == arr.shape[0]
    assert ours.num_nonmissing() == ref.num_nonmissing()
    np.testing.assert_array_equal(bst.predict(ours), bst.predict(ref))


def test_infinite_value_named_at_its_cell():
    x = np.zeros((ROWS, 5), np.float32)
    x[300, 3] = np.inf
    with pytest.raises(treering.XGBoostError, match="row 300, column 3: infinite value"):
        treering.DMatrix(np.asfortranarray(x))
