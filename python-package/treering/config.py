"""Global configuration (verbosity, use_rmm) over XGBSetGlobalConfig / XGBGetGlobalConfig."""
import ctypes
import json
from contextlib import contextmanager

from .core import _LIB, _c_str, _check_call


def set_config(**new_config):
    """Set global parameters, e.g. ``set_config(verbosity=2)``; None values are skipped."""
    config = {k: v for k, v in new_config.items() if v is not None}
    _check_call(_LIB.XGBSetGlobalConfig(_c_str(json.dumps(config))))


def get_config():
    """The global parameters and their values, as a dict."""
    out = ctypes.c_char_p()
    _check_call(_LIB.XGBGetGlobalConfig(ctypes.byref(out)))
    return json.loads(out.value.decode())


@contextmanager
def config_context(**new_config):
    """Set global parameters for a `with` block; every parameter is restored on exit
    (nested contexts work; not thread-safe, as in XGBoost)."""
    old = get_config().copy()
    set_config(**new_config)
    try:
        yield
    finally:
        set_config(**old)
