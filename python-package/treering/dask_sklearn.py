"""DaskXGBRegressor / DaskXGBClassifier / DaskXGBRanker over treering.dask.train.

As xgboost.dask's DaskScikitLearnBase, they are XGBModel subclasses: the constructor, its
parameter list, get_params/set_params and the booster parameters come from the sklearn
estimator (sklearn_base.py); fit() trains with treering.dask.train on the estimator's client
(``distributed.get_client()`` when none is set); predictions are lazy dask collections, as in
xgboost.dask.
"""
import warnings

import numpy as np

from .sklearn_base import XGBClassifierBase, XGBModel, XGBRegressorBase, _booster_params
from .sklearn_models import _RandomForestMixIn


class _DaskModel(XGBModel):
    _default_objective = "reg:squarederror"

    @property
    def client(self):
        """The dask client fit() and predict() use (None: distributed.get_client())."""
        return getattr(self, "_client", None)

    @client.setter
    def client(self, value):
        self._client = value  # pylint: disable=attribute-defined-outside-init

    def get_xgb_params(self):
        """The booster parameters of this estimator, under the names the learner takes."""
        out = _booster_params(super().get_xgb_params())
        out.setdefault("objective", self._default_objective)
        return out

    def _dmatrix(self, client, X, y, **meta):
        from .dask_data import DaskDMatrix  # pylint: disable=import-outside-toplevel
        return DaskDMatrix(client, X, y, missing=self.missing,
                           enable_categorical=self.enable_categorical,
                           feature_types=self.feature_types, **meta)

    def _fit(self, X, y, params, *, sample_weight=None, base_margin=None, eval_set=None,
             eval_metric=None, early_stopping_rounds=None, verbose=True, xgb_model=None,
             sample_weight_eval_set=None, base_margin_eval_set=None, feature_weights=None,
             callbacks=None, qid=None, eval_qid=None):
        # pylint: disable=too-many-arguments,import-outside-toplevel
        from .dask_data import _get_client
        from .dask_train import train
        client = _get_client(self.client)
        dtrain = self._dmatrix(client, X, y, weight=sample_weight, base_margin=base_margin,
                               feature_weights=feature_weights, qid=qid)
        evals = []
        for i, (ex, ey) in enumerate(eval_set or []):
            meta = {"weight": sample_weight_eval_set[i] if sample_weight_eval_set else None,
                    "base_margin": base_margin_eval_set[i] if base_margin_eval_set else None,
                    "qid": eval_qid[i] if eval_qid else None}
            evals.append((self._dmatrix(client, ex, ey, **meta), f"validation_{i}"))
        for name, value in (("eval_metric", eval_metric),
                            ("early_stopping_rounds", early_stopping_rounds)):
            if value is not None:  # XGBoost 1.7's deprecation, word for word in meaning
                warnings.warn(f"`{name}` in `fit` method is deprecated for better "
                              f"compatibility with scikit-learn, use `{name}` in "
                              "constructor or`set_params` instead.", UserWarning)
        metric = eval_metric if eval_metric is not None else self.eval_metric
        custom = metric if callable(metric) else None
        if metric is not None and not callable(metric):
            params["eval_metric"] = metric
        xgb_model = getattr(xgb_model, "get_booster", lambda: xgb_model)()
        result = train(client, params, dtrain, self.get_num_boosting_rounds(), evals=evals,
                       early_stopping_rounds=(early_stopping_rounds
                                              or self.early_stopping_rounds),
                       verbose_eval=verbose, xgb_model=xgb_model,
                       callbacks=callbacks or self.callbacks, custom_metric=custom)
        self._Booster = result["booster"]  # pylint: disable=attribute-defined-outside-init
        self.evals_result_ = result["history"]  # pylint: disable=attribute-defined-outside-init
        return self

    def get_booster(self):
        if getattr(self, "_Booster", None) is None:
            raise ValueError("need to call fit or load_model beforehand")
        return self._Booster

    def evals_result(self):
        if not getattr(self, "evals_result_", None):
            raise ValueError("No evaluation result, `eval_set` is not used during training.")
        return self.evals_result_

    @property
    def best_iteration(self):
        return int(self.get_booster().attr("best_iteration"))

    @property
    def best_score(self):
        return float(self.get_booster().attr("best_score"))

    def save_model(self, fname):
        self.get_booster().save_model(fname)

    def _predict_raw(self, X, output_margin=False, iteration_range=None):
        from . import dask as tdask  # pylint: disable=import-outside-toplevel
        if iteration_range is None:
            iteration_range = (0, 0)
            if self.get_booster().attr("best_score") is not None:
                iteration_range = (0, self.best_iteration + 1)
        return tdask.predict(self.client, self.get_booster(), X, output_margin=output_margin,
                             iteration_range=iteration_range)

    def predict(self, X, output_margin=False, validate_features=True, base_margin=None,
                iteration_range=None):
        # pylint: disable=unused-argument
        return self._predict_raw(X, output_margin, iteration_range)

    def apply(self, X, iteration_range=None):
        from . import dask as tdask  # pylint: disable=import-outside-toplevel
        return tdask.predict(self.client, self.get_booster(), X, pred_leaf=True,
                             iteration_range=iteration_range or (0, 0))


class DaskXGBRegressor(_DaskModel, XGBRegressorBase):
    """XGBoost 1.7's DaskXGBRegressor: reg:squarederror by default."""

    def fit(self, X, y, *, sample_weight=None, base_margin=None, eval_set=None,
            eval_metric=None, early_stopping_rounds=None, verbose=True, xgb_model=None,
            sample_weight_eval_set=None, base_margin_eval_set=None, feature_weights=None,
            callbacks=None):
        return self._fit(X, y, self.get_xgb_params(), sample_weight=sample_weight,
                         base_margin=base_margin, eval_set=eval_set, eval_metric=eval_metric,
                         early_stopping_rounds=early_stopping_rounds, verbose=verbose,
                         xgb_model=xgb_model, sample_weight_eval_set=sample_weight_eval_set,
                         base_margin_eval_set=base_margin_eval_set,
                         feature_weights=feature_weights, callbacks=callbacks)


class DaskXGBRFRegressor(_RandomForestMixIn, DaskXGBRegressor):
    """xgboost.dask's random-forest regressor: one round of n_estimators trees, with the
    scikit-learn forests' defaults and checks (_RandomForestMixIn)."""


class DaskXGBClassifier(_DaskModel, XGBClassifierBase):
    """XGBoost 1.7's DaskXGBClassifier: labels 0..n_classes-1; binary:logistic or
    multi:softprob by the number of classes."""
    _default_objective = "binary:logistic"

    def fit(self, X, y, *, sample_weight=None, base_margin=None, eval_set=None,
            eval_metric=None, early_stopping_rounds=None, verbose=True, xgb_model=None,
            sample_weight_eval_set=None, base_margin_eval_set=None, feature_weights=None,
            callbacks=None):
        import dask  # pylint: disable=import-outside-toplevel
        classes = np.unique(np.asarray(dask.compute(y)[0]))
        self.classes_ = classes  # pylint: disable=attribute-defined-outside-init
        self.n_classes_ = len(classes)  # pylint: disable=attribute-defined-outside-init
        if not np.array_equal(classes, np.arange(len(classes))):
            raise ValueError(f"y: invalid classes {classes.tolist()}; expected "
                             f"{list(range(len(classes)))} (as XGBoost 1.7)")
        params = self.get_xgb_params()
        if self.n_classes_ > 2:
            if self.objective is None:
                params["objective"] = "multi:softprob"
            params["num_class"] = self.n_classes_
        return self._fit(X, y, params, sample_weight=sample_weight, base_margin=base_margin,
                         eval_set=eval_set, eval_metric=eval_metric,
                         early_stopping_rounds=early_stopping_rounds, verbose=verbose,
                         xgb_model=xgb_model, sample_weight_eval_set=sample_weight_eval_set,
                         base_margin_eval_set=base_margin_eval_set,
                         feature_weights=feature_weights, callbacks=callbacks)

    def predict_proba(self, X, validate_features=True, base_margin=None,
                      iteration_range=None):
        # pylint: disable=unused-argument
        import dask.array as da  # pylint: disable=import-outside-toplevel
        probs = self._predict_raw(X, False, iteration_range)
        if self.n_classes_ == 2:  # binary:logistic gives P(1): stack [1 - p, p]
            probs = probs.to_dask_array() if hasattr(probs, "to_dask_array") else probs
            return da.stack([1 - probs, probs], axis=1)
        return probs

    def predict(self, X, output_margin=False, validate_features=True, base_margin=None,
                iteration_range=None):
        # pylint: disable=unused-argument
        preds = self._predict_raw(X, output_margin, iteration_range)
        if output_margin:
            return preds
        if self.n_classes_ == 2:
            return (preds > 0.5).astype(np.int64)
        preds = preds.to_dask_array() if hasattr(preds, "to_dask_array") else preds
        return preds.argmax(axis=1)


class DaskXGBRFClassifier(_RandomForestMixIn, DaskXGBClassifier):
    """xgboost.dask's random-forest classifier: one round of n_estimators trees, with the
    scikit-learn forests' defaults and checks (_RandomForestMixIn)."""


class DaskXGBRanker(_DaskModel):
    """XGBoost 1.7's DaskXGBRanker: rank:pairwise by default; query groups by `qid` (a dask
    collection partitioned as X, each group within one partition); `group` is refused."""
    _default_objective = "rank:pairwise"

    def __init__(self, *, objective="rank:pairwise", **kwargs):
        if callable(objective):
            raise ValueError("Custom objective function not supported by XGBRanker.")
        super().__init__(objective=objective, **kwargs)

    def fit(self, X, y, *, group=None, qid=None, sample_weight=None, base_margin=None,
            eval_set=None, eval_group=None, eval_qid=None, eval_metric=None,
            early_stopping_rounds=None, verbose=False, xgb_model=None,
            sample_weight_eval_set=None, base_margin_eval_set=None, feature_weights=None,
            callbacks=None):
        if group is not None or eval_group is not None:
            raise NotImplementedError("group: use `qid` instead (as xgboost.dask 1.7)")
        if qid is None:
            raise ValueError("qid: required for ranking")
        return self._fit(X, y, self.get_xgb_params(), sample_weight=sample_weight,
                         base_margin=base_margin, eval_set=eval_set, eval_metric=eval_metric,
                         early_stopping_rounds=early_stopping_rounds, verbose=verbose,
                         xgb_model=xgb_model, sample_weight_eval_set=sample_weight_eval_set,
                         base_margin_eval_set=base_margin_eval_set,
                         feature_weights=feature_weights, callbacks=callbacks, qid=qid,
                         eval_qid=eval_qid)


__all__ = ["DaskXGBRegressor", "DaskXGBClassifier", "DaskXGBRanker", "DaskXGBRFRegressor",
           "DaskXGBRFClassifier"]
