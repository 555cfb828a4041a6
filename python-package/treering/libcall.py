"""libtreering loaded through ctypes, and the helpers every C call of the package uses."""
import ctypes
import functools
import inspect
import json
import warnings

import numpy as np

from .libpath import find_lib_path

c_bst_ulong = ctypes.c_uint64


class XGBoostError(ValueError):
    """An error reported by libtreering (the message is XGBGetLastError's)."""


_LOG_CALLBACK_TYPE = ctypes.CFUNCTYPE(None, ctypes.c_char_p)


def _log_to_python(message):
    # As XGBoost 1.7's package: the library's log lines (its warnings, and in a distributed
    # job the ranks' prints that reach an in-process tracker, e.g. rank 0's evaluation lines
    # under treering.dask) are printed on Python's stdout, where notebooks show them.
    print(message.decode(errors="replace"), flush=True)


def _load_lib():
    lib = ctypes.cdll.LoadLibrary(find_lib_path())
    lib.XGBGetLastError.restype = ctypes.c_char_p
    # Kept on the library object: the C side holds the pointer for the process's life.
    lib.log_callback = _LOG_CALLBACK_TYPE(_log_to_python)
    if lib.XGBRegisterLogCallback(lib.log_callback) != 0:
        raise XGBoostError(lib.XGBGetLastError().decode())
    return lib


_LIB = _load_lib()


def _check_call(ret):
    if ret != 0:
        raise XGBoostError(_LIB.XGBGetLastError().decode())


def _c_str(text):
    return ctypes.c_char_p(str(text).encode())


def _c_array(ctype, values):
    return (ctype * len(values))(*values)


def _from_cstr_list(arr, length):
    return [arr[i].decode() for i in range(length.value)]


def _str_array(strings):
    return _c_array(ctypes.c_char_p, [s.encode() for s in strings])


def _prediction_output(shape, dims, preds):
    dims = dims.value
    arr_shape = tuple(shape[i] for i in range(dims))
    size = 1
    for extent in arr_shape:
        size *= extent
    if not dims:
        size = 0
    # One memmove into a new (writable) array: np.ctypeslib.as_array + a copy cost a third of
    # a one-row prediction's time.
    out = np.empty(size, dtype=np.float32)
    if size:
        ctypes.memmove(out.ctypes.data, preds, size * 4)
    return out.reshape(arr_shape)


def build_info():
    """The library's build description (XGBuildInfo) as a dict."""
    out = ctypes.c_char_p()
    _check_call(_LIB.XGBuildInfo(ctypes.byref(out)))
    return json.loads(out.value.decode())


def _deprecate_positional_args(func):
    """Accept keyword-only parameters positionally, with XGBoost 1.7's FutureWarning.

    XGBoost 1.7 made most arguments keyword-only but still takes them positionally (its
    demos call ``train(params, dtrain, rounds, watchlist)``), so treering does too.
    """
    params = inspect.signature(func).parameters
    positional = [n for n, p in params.items()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    keyword_only = [n for n, p in params.items() if p.kind == p.KEYWORD_ONLY]

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        extra = len(args) - len(positional)
        if extra <= 0:
            return func(*args, **kwargs)
        if extra > len(keyword_only):
            raise TypeError(f"{func.__name__}() takes at most "
                            f"{len(positional) + len(keyword_only)} positional arguments")
        names = keyword_only[:extra]
        warnings.warn(f"Pass `{', '.join(names)}` as keyword args.", FutureWarning)
        for name, value in zip(names, args[len(positional):]):
            if name in kwargs:
                raise TypeError(f"{func.__name__}() got multiple values for '{name}'")
            kwargs[name] = value
        return func(*args[:len(positional)], **kwargs)
    return wrapper
