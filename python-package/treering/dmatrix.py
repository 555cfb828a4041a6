"""DMatrix: data and meta information over treering's C API (XGBoost 1.7's class)."""
import ctypes
import os

import numpy as np

from . import data as _data
from .libcall import (_LIB, _c_str, _check_call, _deprecate_positional_args, _from_cstr_list,
                      _str_array, c_bst_ulong)


# DMatrix and Booster keep feature names and types through the same pair of C calls, each
# with its own prefix (XGDMatrix*/XGBooster*StrFeatureInfo).
def _get_str_feature_info(getter, handle, field):
    length = c_bst_ulong()
    arr = ctypes.POINTER(ctypes.c_char_p)()
    _check_call(getter(handle, _c_str(field), ctypes.byref(length), ctypes.byref(arr)))
    values = _from_cstr_list(arr, length)
    return values if values else None


def _set_str_feature_info(setter, handle, field, values):
    if values is None:
        _check_call(setter(handle, _c_str(field), None, c_bst_ulong(0)))
        return
    values = list(values)
    _check_call(setter(handle, _c_str(field), _str_array(values), c_bst_ulong(len(values))))


class DMatrix:
    """Data and meta information for training and prediction (XGBoost's DMatrix)."""

    @_deprecate_positional_args
    def __init__(self, data, label=None, *, weight=None, base_margin=None, missing=None,
                 silent=False, feature_names=None, feature_types=None, nthread=None,
                 group=None, qid=None, label_lower_bound=None, label_upper_bound=None,
                 feature_weights=None, enable_categorical=False):
        if group is not None and qid is not None:
            raise ValueError("Either one of `group` or `qid` should be None.")
        self.missing = missing if missing is not None else np.nan
        self.nthread = nthread if nthread is not None else -1
        self.silent = silent
        self.handle = None
        if data is None:
            return
        # A DataIter fills the matrix from its batches. It is recognised by its method, not
        # its class: DataIter's proxy subclasses DMatrix, so this module cannot import it.
        fill_from_batches = getattr(data, "_fill_dmatrix", None)
        if fill_from_batches is not None:
            fill_from_batches(self, enable_categorical)
            return
        handle, feature_names, feature_types = _data.create_dmatrix_handle(
            _LIB, _check_call, data, missing, nthread, silent, enable_categorical,
            feature_names, feature_types)
        self.handle = handle
        self.set_info(label=label, weight=weight, base_margin=base_margin, group=group,
                      qid=qid, label_lower_bound=label_lower_bound,
                      label_upper_bound=label_upper_bound, feature_weights=feature_weights)
        if feature_names is not None:
            self.feature_names = feature_names
        if feature_types is not None:
            self.feature_types = feature_types

    def __del__(self):
        if getattr(self, "handle", None) is not None:
            _check_call(_LIB.XGDMatrixFree(self.handle))
            self.handle = None

    # ---- meta information -------------------------------------------------------------
    def set_info(self, *, label=None, weight=None, base_margin=None, group=None, qid=None,
                 label_lower_bound=None, label_upper_bound=None, feature_names=None,
                 feature_types=None, feature_weights=None):
        """Set any of the meta fields; None leaves a field as it is."""
        fields = (("label", label), ("weight", weight), ("base_margin", base_margin),
                  ("label_lower_bound", label_lower_bound),
                  ("label_upper_bound", label_upper_bound),
                  ("feature_weights", feature_weights))
        for name, value in fields:
            if value is not None:
                self._set_info_interface(name, value, np.float32)
        if group is not None:
            self.set_group(group)
        if qid is not None:
            self._set_info_interface("qid", qid, np.uint64)
        if feature_names is not None:
            self.feature_names = feature_names
        if feature_types is not None:
            self.feature_types = feature_types

    def _set_info_interface(self, field, value, dtype):
        shape = getattr(value, "shape", None)
        # As 1.7: label and base_margin may be matrices, other fields one column at most.
        if shape is not None and (len(shape) > 2 or (
                field not in ("label", "base_margin") and len(shape) == 2
                and shape[1] not in (0, 1))):
            raise ValueError(f"Invalid shape: {shape} for {field}")
        arr = value
        if _data.is_pandas(arr):
            from . import pandas_data  # pandas only for pandas input
            arr = pandas_data.meta_values(arr, field, dtype)
        arr = np.asarray(arr)
        if arr.dtype.kind not in "fiub":
            raise ValueError(f"{field}: expected numbers, got dtype {arr.dtype}")
        if arr.ndim == 2 and arr.shape[1] == 1 and field != "base_margin":
            arr = arr.reshape(-1)
        arr = np.ascontiguousarray(arr, dtype=dtype)
        _check_call(_LIB.XGDMatrixSetInfoFromInterface(self.handle, _c_str(field),
                                                       _data.array_interface(arr)))

    def set_float_info(self, field, data):
        self._set_info_interface(field, data, np.float32)

    def set_float_info_npy2d(self, field, data):
        self._set_info_interface(field, data, np.float32)

    def set_uint_info(self, field, data):
        self._set_info_interface(field, data, np.uint32)

    def get_float_info(self, field):
        length = c_bst_ulong()
        ptr = ctypes.POINTER(ctypes.c_float)()
        _check_call(_LIB.XGDMatrixGetFloatInfo(self.handle, _c_str(field),
                                               ctypes.byref(length), ctypes.byref(ptr)))
        if length.value == 0:
            return np.empty(0, dtype=np.float32)
        return np.array(np.ctypeslib.as_array(ptr, shape=(length.value,)), copy=True)

    def get_uint_info(self, field):
        length = c_bst_ulong()
        ptr = ctypes.POINTER(ctypes.c_uint)()
        _check_call(_LIB.XGDMatrixGetUIntInfo(self.handle, _c_str(field),
                                              ctypes.byref(length), ctypes.byref(ptr)))
        if length.value == 0:
            return np.empty(0, dtype=np.uint32)
        return np.array(np.ctypeslib.as_array(ptr, shape=(length.value,)), copy=True)

    def set_label(self, label):
        self.set_info(label=label)

    def set_weight(self, weight):
        self.set_info(weight=weight)

    def set_base_margin(self, margin):
        self.set_info(base_margin=margin)

    def set_group(self, group):
        self._set_info_interface("group", group, np.uint32)

    def get_label(self):
        return self.get_float_info("label")

    def get_weight(self):
        return self.get_float_info("weight")

    def get_base_margin(self):
        return self.get_float_info("base_margin")

    def get_group(self):
        ptr = self.get_uint_info("group_ptr")
        return np.diff(ptr).astype(np.uint32) if ptr.size else ptr

    def save_binary(self, fname, silent=True):
        """Write the matrix (treering writes LibSVM text that DMatrix(fname) reads back)."""
        path = os.fspath(os.path.expanduser(fname))
        _check_call(_LIB.XGDMatrixSaveBinary(self.handle, _c_str(path), ctypes.c_int(silent)))

    # ---- shape --------------------------------------------------------------------------
    def num_row(self):
        out = c_bst_ulong()
        _check_call(_LIB.XGDMatrixNumRow(self.handle, ctypes.byref(out)))
        return out.value

    def num_col(self):
        out = c_bst_ulong()
        _check_call(_LIB.XGDMatrixNumCol(self.handle, ctypes.byref(out)))
        return out.value

    def num_nonmissing(self):
        out = c_bst_ulong()
        _check_call(_LIB.XGDMatrixNumNonMissing(self.handle, ctypes.byref(out)))
        return out.value

    def get_data(self):
        """The matrix as a scipy CSR matrix (missing values absent)."""
        import scipy.sparse  # only this method needs scipy
        indptr = np.empty(self.num_row() + 1, dtype=np.uint64)
        indices = np.empty(self.num_nonmissing(), dtype=np.uint32)
        values = np.empty(self.num_nonmissing(), dtype=np.float32)
        _check_call(_LIB.XGDMatrixGetDataAsCSR(
            self.handle, _c_str("{}"), indptr.ctypes.data_as(ctypes.POINTER(c_bst_ulong)),
            indices.ctypes.data_as(ctypes.POINTER(ctypes.c_uint32)),
            values.ctypes.data_as(ctypes.POINTER(ctypes.c_float))))
        return scipy.sparse.csr_matrix((values, indices, indptr),
                                       shape=(self.num_row(), self.num_col()))

    def slice(self, rindex, allow_groups=False):
        """A new DMatrix of the rows `rindex` (with their meta information)."""
        rows = np.asarray(rindex, dtype=np.int32)
        res = DMatrix(None)
        res.handle = ctypes.c_void_p()
        _check_call(_LIB.XGDMatrixSliceDMatrixEx(
            self.handle, rows.ctypes.data_as(ctypes.POINTER(ctypes.c_int)),
            c_bst_ulong(rows.size), ctypes.byref(res.handle), ctypes.c_int(allow_groups)))
        return res

    # ---- feature information ------------------------------------------------------------
    def _get_str_info(self, field):
        return _get_str_feature_info(_LIB.XGDMatrixGetStrFeatureInfo, self.handle, field)

    def _set_str_info(self, field, values):
        _set_str_feature_info(_LIB.XGDMatrixSetStrFeatureInfo, self.handle, field, values)

    @property
    def feature_names(self):
        return self._get_str_info("feature_name")

    @feature_names.setter
    def feature_names(self, feature_names):
        if feature_names is None:
            self._set_str_info("feature_name", None)
            return
        if isinstance(feature_names, str):
            feature_names = [feature_names]
        feature_names = list(feature_names)
        if len(feature_names) != len(set(feature_names)):
            raise ValueError("feature_names must be unique")
        if len(feature_names) != self.num_col() and self.num_col() != 0:
            raise ValueError("feature_names must have the same length as data")
        if not all(isinstance(f, str) and not any(x in f for x in set(("[", "]", "<")))
                   for f in feature_names):
            raise ValueError("feature_names must be string, and may not contain [, ] or <")
        self._set_str_info("feature_name", feature_names)

    @property
    def feature_types(self):
        return self._get_str_info("feature_type")

    @feature_types.setter
    def feature_types(self, feature_types):
        if feature_types is None:
            self._set_str_info("feature_type", None)
            return
        if isinstance(feature_types, str):
            feature_types = [feature_types] * self.num_col()
        feature_types = list(feature_types)
        if len(feature_types) != self.num_col() and self.num_col() != 0:
            raise ValueError("feature_types must have the same length as data")
        self._set_str_info("feature_type", feature_types)
