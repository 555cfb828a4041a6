"""treering: XGBoost 1.7's Python API over libtreering (``import treering as xgb``)."""
from . import callback
from .core import Booster, DMatrix, XGBoostError, build_info
from .training import train
from .cv import cv

__version__ = "1.7.4"

__all__ = ["Booster", "DMatrix", "XGBoostError", "build_info", "train", "cv", "callback"]
