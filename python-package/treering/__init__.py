"""treering: XGBoost 1.7's Python API over libtreering (``import treering as xgb``)."""
from . import callback
from .core import Booster, DMatrix, XGBoostError, build_info
from .training import train
from .cv import cv

__version__ = "0.1.0"  # treering's own version (libtreering.so.0.1)
# The XGBoost Python API this package follows.
XGBOOST_API_VERSION = "1.7.4"

__all__ = ["Booster", "DMatrix", "XGBoostError", "build_info", "train", "cv", "callback"]

# --- data part (py-data): iterators, global configuration, plotting ---
from .core import DataIter, DeviceQuantileDMatrix, QuantileDMatrix  # noqa: E402
from .config import config_context, get_config, set_config  # noqa: E402
from .plotting import plot_importance, plot_tree, to_graphviz  # noqa: E402
__all__ += ["DataIter", "DeviceQuantileDMatrix", "QuantileDMatrix", "config_context",
            "get_config", "set_config", "plot_importance", "plot_tree", "to_graphviz"]
# --- end data part ---
