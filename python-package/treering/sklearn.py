"""`treering.sklearn`: XGBoost 1.7's scikit-learn API (``xgboost.sklearn``) over treering.

The estimators live in sklearn_base.py (XGBModel) and sklearn_models.py (the rest); this
module gives them XGBoost's module name, so ``from treering.sklearn import XGBClassifier``
works as ``from xgboost.sklearn import XGBClassifier`` does. Like XGBoost 1.7, it imports
without scikit-learn installed; constructing an estimator then raises ImportError.
"""
from .sklearn_base import SKLEARN_INSTALLED, XGBModel
from .sklearn_models import (XGBClassifier, XGBRankerMixIn, XGBRanker, XGBRegressor,
                             XGBRFClassifier, XGBRFRegressor)

__all__ = ["XGBModel", "XGBClassifier", "XGBRegressor", "XGBRanker", "XGBRFClassifier",
           "XGBRFRegressor", "XGBRankerMixIn", "SKLEARN_INSTALLED"]
