"""Turn Python data (numpy, scipy.sparse, lists, file URIs) into C API calls.

Arrays reach the library as NumPy array-interface JSON strings, so C and Fortran layouts
are read in place without a copy; the caller keeps the array alive during the call.
"""
import ctypes
import json
import os
import sys

import numpy as np

try:  # scipy is optional: without it sparse input is simply not recognised.
    import scipy.sparse as _sparse
except ImportError:  # pragma: no cover
    _sparse = None

_FLOAT_TYPES = (np.float32, np.float64)


def array_interface(arr):
    """JSON array interface of a numpy array (version 3, strides kept)."""
    info = arr.__array_interface__
    if "mask" not in info and arr.dtype.type in _FLOAT_TYPES:
        # The common case written directly: json.dumps of the dict was a fifth of a one-row
        # prediction's time.
        strides = "null" if info["strides"] is None else \
            "[" + ",".join(str(s) for s in info["strides"]) + "]"
        shape = ",".join(str(n) for n in info["shape"])
        return (f'{{"data":[{info["data"][0]},{"true" if info["data"][1] else "false"}],'
                f'"strides":{strides},"shape":[{shape}],'
                f'"typestr":"{info["typestr"]}","version":{info["version"]}}}').encode()
    info = dict(info)
    if "mask" in info:
        info["mask"] = info["mask"].__array_interface__
    info.pop("descr", None)
    return json.dumps(info).encode()


def ensure_numeric(arr):
    """A float32/float64 view (or copy) of an array of numbers; refuse anything else."""
    if arr.dtype.kind in "fiub":
        if arr.dtype.type not in _FLOAT_TYPES or not arr.dtype.isnative:
            arr = arr.astype(np.float32 if arr.dtype.itemsize <= 4 else np.float64)
        return arr
    raise ValueError(f"data: expected numbers, got an array of dtype {arr.dtype}")


def missing_config(missing, nthread=None):
    """Config JSON carrying `missing` (NaN by default) and nthread."""
    value = np.nan if missing is None else float(missing)
    cfg = {"missing": value, "nthread": int(nthread) if nthread else 0}
    return json.dumps(cfg, allow_nan=True).encode()


def is_scipy_csr(data):
    return _sparse is not None and isinstance(data, (_sparse.csr_matrix, getattr(
        _sparse, "csr_array", _sparse.csr_matrix)))


def is_scipy_csc(data):
    return _sparse is not None and isinstance(data, (_sparse.csc_matrix, getattr(
        _sparse, "csc_array", _sparse.csc_matrix)))


def is_scipy_coo(data):
    return _sparse is not None and isinstance(data, (_sparse.coo_matrix, getattr(
        _sparse, "coo_array", _sparse.coo_matrix)))


def _loaded_pandas():
    # A pandas object can only exist once pandas is imported: look, never import.
    return sys.modules.get("pandas")


def is_pandas_frame(data):
    pd = _loaded_pandas()
    return pd is not None and isinstance(data, pd.DataFrame)


def is_pandas_series(data):
    pd = _loaded_pandas()
    return pd is not None and isinstance(data, pd.Series)


def is_pandas(data):
    """A DataFrame or Series (subclasses too), without importing pandas."""
    return is_pandas_frame(data) or is_pandas_series(data)


def from_pandas(data, enable_categorical, feature_names, feature_types):
    """(array, names, types) of a DataFrame or Series (pandas is imported only here)."""
    from . import pandas_data
    if is_pandas_frame(data):
        return pandas_data.transform_dataframe(data, enable_categorical, feature_names,
                                               feature_types)
    if is_pandas_series(data):
        return (pandas_data.transform_series(data, enable_categorical), feature_names,
                feature_types)
    raise TypeError(f"Not supported type for data.{type(data)}")


def is_uri(data):
    return isinstance(data, (str, os.PathLike))


def csr_parts(csr):
    """(indptr, indices, data) arrays of a CSR matrix, in types the C API reads."""
    if csr.shape[0] + 1 != csr.indptr.shape[0]:
        raise ValueError("data: CSR indptr length does not match the rows")
    values = ensure_numeric(np.asarray(csr.data))
    return np.asarray(csr.indptr), np.asarray(csr.indices), values


def create_dmatrix_handle(lib, check_call, data, missing, nthread, silent,
                          enable_categorical=False, feature_names=None, feature_types=None):
    """Create a DMatrix handle from `data`: (handle, feature_names, feature_types), the
    names and types being the caller's unless the data (a DataFrame) brings its own."""
    handle = ctypes.c_void_p()
    if is_uri(data):
        path = os.fspath(os.path.expanduser(data))
        # XGBoost 1.7 logs the "RxC matrix loaded" line at INFO, hidden at its default
        # verbosity whatever `silent` says; treering's C API prints it unless silent.
        check_call(lib.XGDMatrixCreateFromFile(path.encode(), ctypes.c_int(1),
                                               ctypes.byref(handle)))
        return handle, feature_names, feature_types
    if is_pandas(data):
        data, feature_names, feature_types = from_pandas(data, enable_categorical,
                                                         feature_names, feature_types)
    if is_scipy_csc(data) or is_scipy_coo(data):
        data = data.tocsr()
    if is_scipy_csr(data):
        indptr, indices, values = csr_parts(data)
        check_call(lib.XGDMatrixCreateFromCSR(
            array_interface(indptr), array_interface(indices), array_interface(values),
            ctypes.c_uint64(data.shape[1]), missing_config(missing, nthread),
            ctypes.byref(handle)))
        return handle, feature_names, feature_types
    if isinstance(data, (list, tuple)):
        data = np.array(data)
    if isinstance(data, np.ndarray):
        if data.ndim == 1:
            data = data.reshape(-1, 1)
        if data.ndim != 2:
            raise ValueError(f"data: expected a 2-D array, got {data.ndim} dimensions")
        data = ensure_numeric(data)
        check_call(lib.XGDMatrixCreateFromDense(array_interface(data),
                                                missing_config(missing, nthread),
                                                ctypes.byref(handle)))
        return handle, feature_names, feature_types
    raise TypeError(f"Not supported type for data.{type(data)}")
