"""treering: XGBoost 1.7's Python API over libtreering (``import treering as xgb``)."""
from . import callback
from .core import Booster, DMatrix, XGBoostError, build_info
from .training import train
from .cv import cv

# -- distributed (py-dist): the collective, the tracker, treering.dask (imports dask on use).
from . import collective, dask, rabit, tracker
from .tracker import RabitTracker

__version__ = "0.1.0"  # treering's own version (libtreering.so.0.1)
# The XGBoost Python API this package follows.
XGBOOST_API_VERSION = "1.7.4"

__all__ = ["Booster", "DMatrix", "XGBoostError", "build_info", "train", "cv", "callback",
           "collective", "dask", "rabit", "tracker", "RabitTracker"]
