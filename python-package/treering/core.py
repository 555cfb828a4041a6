"""XGBoost 1.7's `xgboost.core` names, for scripts that import them from there.

The classes live in their own modules (libcall: the C library; dmatrix; booster; data_iter)."""
# pylint: disable=unused-import
from .booster import Booster  # noqa: F401
from .data_iter import (DataIter, DeviceQuantileDMatrix, QuantileDMatrix,  # noqa: F401
                        _ProxyDMatrix)
from .dmatrix import DMatrix  # noqa: F401
from .libcall import (_LIB, XGBoostError, _c_array, _c_str, _check_call,  # noqa: F401
                      _deprecate_positional_args, _from_cstr_list, build_info, c_bst_ulong)

__all__ = ["Booster", "DataIter", "DeviceQuantileDMatrix", "QuantileDMatrix", "_ProxyDMatrix",
           "DMatrix", "_LIB", "XGBoostError", "_c_array", "_c_str", "_check_call",
           "_deprecate_positional_args", "_from_cstr_list", "build_info", "c_bst_ulong"]
