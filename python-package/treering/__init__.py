"""treering: XGBoost 1.7's Python API over libtreering (``import treering as xgb``)."""
from . import callback
from .core import Booster, DataIter, DeviceQuantileDMatrix, DMatrix, QuantileDMatrix
from .core import XGBoostError, build_info
from .training import train
from .cv import cv
from .config import config_context, get_config, set_config
from .plotting import plot_importance, plot_tree, to_graphviz

# The collective, the tracker and treering.dask (which imports dask only when used).
from . import collective, dask, rabit, tracker
from .tracker import RabitTracker

__version__ = "0.1.0"  # treering's own version (libtreering.so.0.1)
# The XGBoost Python API this package follows.
XGBOOST_API_VERSION = "1.7.4"

# The estimators import scikit-learn (half a second): loaded on first use, so a script that
# trains through xgb.train does not pay for it. treering's own names are aliases.
_ESTIMATORS = {"XGBModel": "XGBModel", "XGBClassifier": "XGBClassifier",
               "XGBRegressor": "XGBRegressor", "XGBRanker": "XGBRanker",
               "XGBRFClassifier": "XGBRFClassifier", "XGBRFRegressor": "XGBRFRegressor",
               "TreeringClassifier": "XGBClassifier", "TreeringRegressor": "XGBRegressor",
               "TreeringRanker": "XGBRanker", "TreeringRFClassifier": "XGBRFClassifier",
               "TreeringRFRegressor": "XGBRFRegressor"}


def __getattr__(name):
    if name in _ESTIMATORS:
        from . import sklearn
        value = getattr(sklearn, _ESTIMATORS[name])
        globals()[name] = value
        return value
    raise AttributeError(f"module 'treering' has no attribute '{name}'")


__all__ = [
    "Booster", "DMatrix", "DataIter", "QuantileDMatrix", "DeviceQuantileDMatrix",
    "XGBoostError", "build_info", "train", "cv", "callback",
    "config_context", "get_config", "set_config",
    "plot_importance", "plot_tree", "to_graphviz",
    "XGBModel", "XGBClassifier", "XGBRegressor", "XGBRanker", "XGBRFClassifier",
    "XGBRFRegressor", "TreeringClassifier", "TreeringRegressor", "TreeringRanker",
    "TreeringRFClassifier", "TreeringRFRegressor",
    "collective", "dask", "rabit", "tracker", "RabitTracker",
]
