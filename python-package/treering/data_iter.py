"""DataIter and QuantileDMatrix: matrices built from a user's batches (XGBoost 1.7's API).

The library pulls batches through two C callbacks (reset, next); `next` hands a batch to the
proxy DMatrix (XGProxyDMatrixSetData* and its meta information). treering's C API
concatenates the batches into one in-memory matrix: there is no external memory yet
(issue 33), so an iterator's `cache_prefix` is not used (see `init_dmatrix_from_iter`).
"""
import ctypes
import json
import sys
import warnings
from abc import ABC, abstractmethod

import numpy as np

from . import data as _data
from .dmatrix import DMatrix
from .libcall import _LIB, _check_call, _deprecate_positional_args


class _ProxyDMatrix(DMatrix):
    """The slot a `next` callback (or inplace_predict's base_margin) fills."""

    def __init__(self):  # pylint: disable=super-init-not-called
        self.handle = ctypes.c_void_p()
        self._shape = (0, 0)
        _check_call(_LIB.XGProxyDMatrixCreate(ctypes.byref(self.handle)))

    # The library keeps no shape for a proxy; the feature_names/types setters check the
    # batch's column count, so the proxy answers from the batch it was given.
    def num_row(self):
        return self._shape[0]

    def num_col(self):
        return self._shape[1]

    def set_dense(self, arr):
        self._shape = arr.shape
        _check_call(_LIB.XGProxyDMatrixSetDataDense(self.handle, _data.array_interface(arr)))

    def set_csr(self, csr):
        indptr, indices, values = _data.csr_parts(csr)
        self._shape = csr.shape
        _check_call(_LIB.XGProxyDMatrixSetDataCSR(
            self.handle, _data.array_interface(indptr), _data.array_interface(indices),
            _data.array_interface(values), ctypes.c_uint64(csr.shape[1])))


def _batch_arrays(data, feature_names, feature_types, enable_categorical):
    """The batch as what the proxy takes (a 2-D float array or CSR), names and types."""
    if _data.is_pandas_frame(data):
        return _data.from_pandas(data, enable_categorical, feature_names, feature_types)
    if isinstance(data, np.ndarray):
        return data, feature_names, feature_types
    if _data.is_scipy_csr(data):
        return data, feature_names, feature_types
    raise TypeError("Value type is not supported for data iterator:" + str(type(data)))


class DataIter(ABC):
    """A user's batches: subclass it with `reset()` and `next(input_data)`.

    `next` calls `input_data(data=..., label=..., ...)` (DMatrix's keywords) once for its
    batch and returns 1, or returns 0 at the end. Exceptions raised inside `next`/`reset`
    are kept and re-raised when the matrix construction returns (a ctypes callback cannot
    raise through C).
    """

    def __init__(self, cache_prefix=None):
        self.cache_prefix = cache_prefix
        self._handle = _ProxyDMatrix()
        self._exception = None
        self._enable_categorical = False
        self._allow_host = True
        # The batch's arrays must outlive the `next` call: the library reads them after it.
        self._temporary_data = None

    def get_callbacks(self, allow_host, enable_categorical):
        """The (reset, next) C callbacks; kept on self so ctypes does not free them."""
        if not hasattr(self, "cache_prefix"):
            raise AssertionError("__init__ is not called.")
        self._reset_callback = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(self._reset_wrapper)
        self._next_callback = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)(
            self._next_wrapper)
        self._allow_host = allow_host
        self._enable_categorical = enable_categorical
        return self._reset_callback, self._next_callback

    @property
    def proxy(self):
        return self._handle

    def _handle_exception(self, fn, default):
        if self._exception is not None:
            return default
        try:
            return fn()
        except Exception as err:  # pylint: disable=broad-except
            # Returning `default` (0 for next) ends the iteration; reraise() raises it.
            self._exception = err.with_traceback(sys.exc_info()[2])
        return default

    def reraise(self):
        """Raise the exception kept from `next`/`reset`, if any."""
        self._temporary_data = None
        if self._exception is not None:
            exc, self._exception = self._exception, None
            raise exc

    def _reset_wrapper(self, _this):
        self._temporary_data = None
        self._handle_exception(self.reset, None)

    def _next_wrapper(self, _this):
        def input_data(data, *, feature_names=None, feature_types=None, **kwargs):
            arr, names, types = _batch_arrays(data, feature_names, feature_types,
                                              self._enable_categorical)
            if hasattr(arr, "shape") and len(arr.shape) != 2:
                raise ValueError("Please reshape the input data into 2-dimensional matrix.")
            if isinstance(arr, np.ndarray):
                arr = _data.ensure_numeric(arr)
                self._temporary_data = arr
                self.proxy.set_dense(arr)
            else:
                self._temporary_data = arr
                self.proxy.set_csr(arr)
            self.proxy.set_info(feature_names=names, feature_types=types, **kwargs)
        return self._handle_exception(lambda: self.next(input_data), 0)

    def _fill_dmatrix(self, dmat, enable_categorical):
        # DMatrix(it) calls this: the batches concatenated in memory.
        init_dmatrix_from_iter(dmat, self, enable_categorical)

    @abstractmethod
    def reset(self):
        """Go back to the first batch."""
        raise NotImplementedError()

    @abstractmethod
    def next(self, input_data):
        """Pass one batch to `input_data`; return 1, or 0 when there are no more."""
        raise NotImplementedError()


class SingleBatchInternalIter(DataIter):
    """One batch (an array and its meta information) as an iterator, for QuantileDMatrix."""

    def __init__(self, **kwargs):
        self.kwargs = kwargs
        self.it = 0
        super().__init__()

    def next(self, input_data):
        if self.it == 1:
            return 0
        self.it += 1
        input_data(**self.kwargs)
        return 1

    def reset(self):
        self.it = 0


def _iter_config(missing, nthread, **extra):
    cfg = {"missing": float(np.nan if missing is None else missing),
           "nthread": int(nthread if nthread is not None else -1)}
    cfg.update(extra)
    return json.dumps(cfg, allow_nan=True).encode()


def init_dmatrix_from_iter(dmat, it, enable_categorical):
    """DMatrix(DataIter): the batches concatenated in memory.

    XGBoost 1.7 builds an external-memory matrix here (pages cached under `cache_prefix`).
    treering has no external memory yet (issue 33): its C API refuses a cache prefix, so the
    batches are loaded into memory instead, with a warning when a prefix was given.
    """
    if it.cache_prefix:
        warnings.warn("treering has no external memory yet (issue 33): the iterator's batches "
                      f"are loaded into memory and cache_prefix {it.cache_prefix!r} is not "
                      "used.", UserWarning)
    reset, nxt = it.get_callbacks(True, enable_categorical)
    handle = ctypes.c_void_p()
    ret = _LIB.XGDMatrixCreateFromCallback(
        None, it.proxy.handle, reset, nxt,
        _iter_config(dmat.missing, dmat.nthread, cache_prefix=""), ctypes.byref(handle))
    it.reraise()
    _check_call(ret)  # after reraise: the user's exception explains a failure best
    dmat.handle = handle


class QuantileDMatrix(DMatrix):
    """A DMatrix for the `hist` tree method with its own `max_bin` (XGBoost 1.7).

    treering keeps the values (one in-memory matrix, like DMatrix) and quantises when it
    trains, with this matrix's `max_bin` unless the booster sets `max_bin`; `ref` lends its
    `max_bin`. Predictions on it are the raw values' predictions.
    """

    @_deprecate_positional_args
    def __init__(self, data, label=None, *, weight=None, base_margin=None, missing=None,
                 silent=False, feature_names=None, feature_types=None, nthread=None,
                 max_bin=None, ref=None, group=None, qid=None, label_lower_bound=None,
                 label_upper_bound=None, feature_weights=None, enable_categorical=False):
        # pylint: disable=super-init-not-called
        self.max_bin = max_bin if max_bin is not None else 256
        self.missing = missing if missing is not None else np.nan
        self.nthread = nthread if nthread is not None else -1
        self._silent = silent
        self.silent = silent
        self.handle = None
        if isinstance(data, ctypes.c_void_p):
            self.handle = data
            return
        if qid is not None and group is not None:
            raise ValueError("Only one of the eval_qid or eval_group for each evaluation "
                             "dataset should be provided.")
        meta = {"label": label, "weight": weight, "base_margin": base_margin, "group": group,
                "qid": qid, "label_lower_bound": label_lower_bound,
                "label_upper_bound": label_upper_bound, "feature_weights": feature_weights,
                "feature_names": feature_names, "feature_types": feature_types}
        if isinstance(data, DataIter):
            if any(v is not None for v in meta.values()):
                raise ValueError("If data iterator is used as input, data like label should "
                                 "be specified as batch argument.")
            it = data
        else:
            it = SingleBatchInternalIter(data=data, **meta)
        self._init_from(it, ref, enable_categorical)

    def _init_from(self, it, ref, enable_categorical):
        reset, nxt = it.get_callbacks(True, enable_categorical)
        if it.cache_prefix is not None:
            raise ValueError("QuantileDMatrix doesn't cache data, remove the cache_prefix "
                             "in iterator to fix this error.")
        if ref is not None and not isinstance(ref, DMatrix):
            raise TypeError(f"ref: expected a DMatrix, got {type(ref).__name__}")
        handle = ctypes.c_void_p()
        ret = _LIB.XGQuantileDMatrixCreateFromCallback(
            None, it.proxy.handle, ref.handle if ref is not None else None, reset, nxt,
            _iter_config(self.missing, self.nthread, max_bin=int(self.max_bin)),
            ctypes.byref(handle))
        it.reraise()
        _check_call(ret)
        self.handle = handle


class DeviceQuantileDMatrix(QuantileDMatrix):
    """Deprecated in 1.7 (use QuantileDMatrix); host data works, as there."""

    def __init__(self, *args, **kwargs):
        warnings.warn("Please use `QuantileDMatrix` instead.", FutureWarning)
        super().__init__(*args, **kwargs)
