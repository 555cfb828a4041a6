"""treering: XGBoost 1.7's Python API over libtreering (``import treering as xgb``)."""
from . import callback
from .core import Booster, DMatrix, XGBoostError, build_info
from .training import train
from .cv import cv

__version__ = "0.1.0"  # treering's own version (libtreering.so.0.1)
# The XGBoost Python API this package follows.
XGBOOST_API_VERSION = "1.7.4"

__all__ = ["Booster", "DMatrix", "XGBoostError", "build_info", "train", "cv", "callback"]

# --- part: scikit-learn estimators (treering.sklearn) ---
from .sklearn import (XGBClassifier, XGBModel, XGBRanker, XGBRegressor,  # noqa: E402
                      XGBRFClassifier, XGBRFRegressor)
TreeringClassifier = XGBClassifier
TreeringRegressor = XGBRegressor
TreeringRanker = XGBRanker
TreeringRFClassifier = XGBRFClassifier
TreeringRFRegressor = XGBRFRegressor
__all__ += ["XGBModel", "XGBClassifier", "XGBRegressor", "XGBRanker", "XGBRFClassifier",
            "XGBRFRegressor", "TreeringClassifier", "TreeringRegressor", "TreeringRanker",
            "TreeringRFClassifier", "TreeringRFRegressor"]
# --- end part: scikit-learn estimators ---
