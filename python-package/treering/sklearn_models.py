"""XGBoost 1.7's scikit-learn estimators: classifier, regressor, ranker, random forests."""
import warnings

import numpy as np

from .core import _deprecate_positional_args
from .sklearn_base import (XGBClassifierBase, XGBModel, XGBRegressorBase,
                           _check_rf_callback, _objective_decorator,
                           _wrap_evaluation_matrices)

# Checks of sklearn's check_estimator that fit a classifier on labels other than
# 0..n_classes-1 ({1, 2}, strings, a single class 1). XGBoost 1.7 refuses such labels (it
# dropped its label encoder in 1.6) and so does treering, with 1.7's ValueError.
_LABEL_CHECKS = (
    "check_sample_weights_not_an_array", "check_sample_weights_shape",
    "check_sample_weights_not_overwritten", "check_sample_weights_invariance",
    "check_sample_weights_pandas_series", "check_classifier_data_not_an_array",
    "check_classifiers_classes", "check_fit2d_1sample", "check_fit2d_1feature")
_LABEL_REASON = ("XGBoost 1.7 requires class labels 0..n_classes-1 and raises ValueError "
                 "for other labels; this check fits on other labels")


class XGBRankerMixIn:  # pylint: disable=too-few-public-methods
    """Defines the ranker estimator type (scikit-learn has no ranking mixin)."""
    _estimator_type = "ranker"


def _softmax(margin):
    shifted = margin - np.max(margin, axis=1, keepdims=True)
    exp = np.exp(shifted)
    return exp / np.sum(exp, axis=1, keepdims=True)


def _cls_predict_proba(n_classes, prediction):
    """Class probabilities of shape (n_samples, n_classes) from predict()'s output."""
    if prediction.ndim == 2 and prediction.shape[1] == n_classes:
        return prediction  # multi-class
    if prediction.ndim == 2 and n_classes == 2 and prediction.shape[1] >= n_classes:
        return prediction  # multi-label
    return np.vstack((1.0 - prediction, prediction)).transpose()  # binary


def _inferred_classes(y):
    """np.unique(y), checked to be 0..n-1 as XGBoost 1.7 requires."""
    classes = np.unique(np.asarray(y))
    expected = np.arange(len(classes))
    # 1.7 compares with `==`, which for string labels is a scalar and fails with an
    # AttributeError; array_equal gives the ValueError 1.7 means to raise.
    if classes.dtype.kind not in "biuf" or not np.array_equal(classes, expected):
        raise ValueError("Invalid classes inferred from unique values of `y`.  "
                         f"Expected: {expected}, got {classes}")
    return classes


class XGBClassifier(XGBModel, XGBClassifierBase):
    """XGBoost 1.7's scikit-learn classifier (``xgboost.XGBClassifier``) over treering."""

    @_deprecate_positional_args
    def __init__(self, *, objective="binary:logistic", use_label_encoder=None, **kwargs):
        self.use_label_encoder = use_label_encoder
        if use_label_encoder is True:
            raise ValueError("Label encoder was removed in 1.6.0.")
        if use_label_encoder is not None:
            warnings.warn("`use_label_encoder` is deprecated in 1.7.0.")
        super().__init__(objective=objective, **kwargs)

    def _more_tags(self):
        tags = super()._more_tags()
        tags["_xfail_checks"] = {name: _LABEL_REASON for name in _LABEL_CHECKS}
        return tags

    @_deprecate_positional_args
    def fit(self, X, y, *, sample_weight=None, base_margin=None, eval_set=None,
            eval_metric=None, early_stopping_rounds=None, verbose=True, xgb_model=None,
            sample_weight_eval_set=None, base_margin_eval_set=None, feature_weights=None,
            callbacks=None):
        """Fit the classifier; y holds the classes 0..n_classes-1."""
        self.classes_ = _inferred_classes(y)
        self.n_classes_ = len(self.classes_)
        params = self.get_xgb_params()
        obj = None
        if callable(self.objective):
            obj = _objective_decorator(self.objective)
            params["objective"] = "binary:logistic"
        if self.n_classes_ > 2:
            if params.get("objective", None) != "multi:softmax":
                params["objective"] = "multi:softprob"
            params["num_class"] = self.n_classes_
        train_dmatrix, evals = _wrap_evaluation_matrices(
            self.missing, X, y, None, None, sample_weight, base_margin, feature_weights,
            eval_set, sample_weight_eval_set, base_margin_eval_set, None, None,
            self._create_dmatrix, self.enable_categorical, self.feature_types)
        params = self._train(params, train_dmatrix, evals, obj, xgb_model, eval_metric,
                             early_stopping_rounds, verbose, callbacks)
        # XGBoost 1.7 writes the objective it trained with back into `self.objective`
        # (binary:logistic -> multi:softprob), which sklearn's checks forbid: treering
        # keeps it in a private attribute instead.
        self._fit_objective = None if callable(self.objective) else params["objective"]
        return self

    def _trained_objective(self):
        return getattr(self, "_fit_objective", None) or self.objective

    def predict(self, X, output_margin=False, ntree_limit=None, validate_features=True,
                base_margin=None, iteration_range=None):
        """Predicted classes (or margins with output_margin)."""
        class_probs = super().predict(X=X, output_margin=output_margin,
                                      ntree_limit=ntree_limit,
                                      validate_features=validate_features,
                                      base_margin=base_margin,
                                      iteration_range=iteration_range)
        if output_margin:
            return class_probs
        if class_probs.ndim > 1 and self.n_classes_ != 2:
            return np.argmax(class_probs, axis=1)  # softprob -> the likeliest class
        if class_probs.ndim > 1 and class_probs.shape[1] != 1:
            labels = np.zeros(class_probs.shape)  # multi-label
            labels[class_probs > 0.5] = 1
            return labels
        if self._trained_objective() == "multi:softmax":
            return class_probs.astype(np.int32)
        labels = np.repeat(0, class_probs.shape[0])
        labels[class_probs > 0.5] = 1
        return labels

    def predict_proba(self, X, ntree_limit=None, validate_features=True, base_margin=None,
                      iteration_range=None):
        """Class probabilities, shape (n_samples, n_classes)."""
        if self._trained_objective() == "multi:softmax":
            margin = super().predict(X=X, ntree_limit=ntree_limit,
                                     validate_features=validate_features,
                                     base_margin=base_margin,
                                     iteration_range=iteration_range, output_margin=True)
            return _softmax(margin)
        class_probs = super().predict(X=X, ntree_limit=ntree_limit,
                                      validate_features=validate_features,
                                      base_margin=base_margin,
                                      iteration_range=iteration_range)
        # A model loaded from a plain booster file has no n_classes_.
        return _cls_predict_proba(getattr(self, "n_classes_", 0), class_probs)

    def load_model(self, fname):
        self.__dict__.pop("_fit_objective", None)  # the file's state replaces the old fit
        super().load_model(fname)
        # A model saved by XGBoost 1.7 carries the trained objective in `objective`.
        if not callable(self.objective) and not hasattr(self, "_fit_objective"):
            self._fit_objective = self.objective


class XGBRegressor(XGBModel, XGBRegressorBase):
    """XGBoost 1.7's scikit-learn regressor (``xgboost.XGBRegressor``) over treering."""

    @_deprecate_positional_args
    def __init__(self, *, objective="reg:squarederror", **kwargs):
        super().__init__(objective=objective, **kwargs)


class _RandomForestMixIn:
    """One boosting round of n_estimators parallel trees (XGBoost's random forests): the
    learner's num_parallel_tree, each tree with its own row and column samples."""

    # 1.7's forest defaults; scikit-learn reads the parameter names from this signature,
    # which both forest classes inherit.
    @_deprecate_positional_args
    def __init__(self, *, learning_rate=1.0, subsample=0.8, colsample_bynode=0.8,
                 reg_lambda=1e-5, **kwargs):
        super().__init__(learning_rate=learning_rate, subsample=subsample,
                         colsample_bynode=colsample_bynode, reg_lambda=reg_lambda, **kwargs)
        _check_rf_callback(self.early_stopping_rounds, self.callbacks)

    def get_xgb_params(self):
        params = super().get_xgb_params()
        params["num_parallel_tree"] = self.n_estimators
        return params

    def get_num_boosting_rounds(self):
        return 1

    @_deprecate_positional_args
    def fit(self, X, y, *, sample_weight=None, base_margin=None, eval_set=None,
            eval_metric=None, early_stopping_rounds=None, verbose=True, xgb_model=None,
            sample_weight_eval_set=None, base_margin_eval_set=None, feature_weights=None,
            callbacks=None):
        """Fit the forest: one round of n_estimators trees."""
        _check_rf_callback(early_stopping_rounds, callbacks)
        return super().fit(X, y, sample_weight=sample_weight, base_margin=base_margin,
                           eval_set=eval_set, eval_metric=eval_metric, verbose=verbose,
                           xgb_model=xgb_model,
                           sample_weight_eval_set=sample_weight_eval_set,
                           base_margin_eval_set=base_margin_eval_set,
                           feature_weights=feature_weights)


class XGBRFClassifier(_RandomForestMixIn, XGBClassifier):
    """XGBoost 1.7's random-forest classifier (``xgboost.XGBRFClassifier``)."""


class XGBRFRegressor(_RandomForestMixIn, XGBRegressor):
    """XGBoost 1.7's random-forest regressor (``xgboost.XGBRFRegressor``)."""


class XGBRanker(XGBModel, XGBRankerMixIn):
    """XGBoost 1.7's learning-to-rank estimator (``xgboost.XGBRanker``) over treering."""

    @_deprecate_positional_args
    def __init__(self, *, objective="rank:pairwise", **kwargs):
        super().__init__(objective=objective, **kwargs)
        if callable(self.objective):
            raise ValueError("custom objective function not supported by XGBRanker")
        if "rank:" not in objective:
            raise ValueError("please use XGBRanker for ranking task")

    @_deprecate_positional_args
    def fit(self, X, y, *, group=None, qid=None, sample_weight=None, base_margin=None,
            eval_set=None, eval_group=None, eval_qid=None, eval_metric=None,
            early_stopping_rounds=None, verbose=False, xgb_model=None,
            sample_weight_eval_set=None, base_margin_eval_set=None, feature_weights=None,
            callbacks=None):
        """Fit the ranker; query groups by `group` (sizes) or `qid` (one id per row)."""
        if group is None and qid is None:
            raise ValueError("group or qid is required for ranking task")
        if eval_set is not None and eval_group is None and eval_qid is None:
            raise ValueError("eval_group or eval_qid is required if eval_set is not None")
        train_dmatrix, evals = _wrap_evaluation_matrices(
            self.missing, X, y, group, qid, sample_weight, base_margin, feature_weights,
            eval_set, sample_weight_eval_set, base_margin_eval_set, eval_group, eval_qid,
            self._create_dmatrix, self.enable_categorical, self.feature_types)
        self._train(self.get_xgb_params(), train_dmatrix, evals, None, xgb_model,
                    eval_metric, early_stopping_rounds, verbose, callbacks,
                    allow_custom_metric=False)
        return self


__all__ = ["XGBClassifier", "XGBRegressor", "XGBRanker", "XGBRFClassifier",
           "XGBRFRegressor", "XGBRankerMixIn"]
