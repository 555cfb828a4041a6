"""treering: XGBoost 1.7's Python API over libtreering (``import treering as xgb``)."""
from . import callback
from .core import Booster, DataIter, DeviceQuantileDMatrix, DMatrix, QuantileDMatrix
from .core import XGBoostError, build_info
from .training import train
from .cv import cv
from .config import config_context, get_config, set_config
from .plotting import plot_importance, plot_tree, to_graphviz
from .sklearn import (XGBClassifier, XGBModel, XGBRanker, XGBRegressor, XGBRFClassifier,
                      XGBRFRegressor)

# The collective, the tracker and treering.dask (which imports dask only when used).
from . import collective, dask, rabit, tracker
from .tracker import RabitTracker

__version__ = "0.1.0"  # treering's own version (libtreering.so.0.1)
# The XGBoost Python API this package follows.
XGBOOST_API_VERSION = "1.7.4"

# treering's own names for the estimators, for code that does not pose as XGBoost.
TreeringClassifier = XGBClassifier
TreeringRegressor = XGBRegressor
TreeringRanker = XGBRanker
TreeringRFClassifier = XGBRFClassifier
TreeringRFRegressor = XGBRFRegressor

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
