"""XGBModel: the scikit-learn estimator base of XGBoost 1.7's sklearn API, over treering.

The concrete estimators (XGBClassifier, XGBRegressor, XGBRanker, XGBRF*) are in
sklearn_models.py; `treering.sklearn` re-exports both modules under XGBoost's module name.
"""
import contextlib
import functools
import inspect
import json
import warnings

import numpy as np

from .callback import TrainingCallback
from .core import Booster, DMatrix, XGBoostError, _deprecate_positional_args
from .training import train

# As XGBoost 1.7 (its compat.py), the module imports without scikit-learn: the bases fall
# back to `object` and constructing an estimator raises ImportError.
try:
    from sklearn.base import BaseEstimator as XGBModelBase
    from sklearn.base import ClassifierMixin as XGBClassifierBase
    from sklearn.base import RegressorMixin as XGBRegressorBase
    SKLEARN_INSTALLED = True
except ImportError:
    XGBModelBase = object
    XGBClassifierBase = object
    XGBRegressorBase = object
    SKLEARN_INSTALLED = False

# Estimator attributes that configure the wrapper, never the native learner (1.7's list).
_WRAPPER_ONLY = frozenset((
    "importance_type", "kwargs", "missing", "n_estimators", "use_label_encoder",
    "enable_categorical", "early_stopping_rounds", "callbacks", "feature_types"))

# Values that XGBoost's learner accepts and ignores on a CPU build; treering's learner
# validates every key, so the wrapper drops exactly these no-op settings before training.
_CPU_NO_OPS = {"predictor": ("auto", "cpu_predictor"), "sampling_method": ("uniform",)}


def _booster_params(params):
    """1.7's sklearn parameter names -> the names treering's learner takes.

    XGBoost's C++ learner aliases n_jobs to nthread (and random_state to seed, which
    treering's learner also knows); treering's has no n_jobs alias, so it is renamed here.
    """
    out = {}
    for key, value in params.items():
        if value is None:
            continue
        if key in _CPU_NO_OPS and value in _CPU_NO_OPS[key]:
            continue
        out["nthread" if key == "n_jobs" else key] = value
    return out


def _array_like(data):
    """Objects that only offer numpy's __array__ protocol, as numpy arrays.

    XGBoost's DMatrix falls back to np.array() for such objects (sklearn's checks pass one);
    treering's DMatrix reads known types only, so the estimators convert first.
    """
    if data is None or isinstance(data, np.ndarray) or not hasattr(data, "__array__"):
        return data
    module = type(data).__module__ or ""
    if module.startswith(("scipy.", "pandas.")):
        return data
    return np.asarray(data)


try:  # the package's global configuration (another part of issue 31)
    from .config import config_context as _config_context
except ImportError:
    _config_context = None


def _verbosity_context(verbosity):
    """The library's global verbosity set for one call, as 1.7's config_context does.

    verbosity=None leaves the global setting alone (and costs nothing per predict call).
    """
    if verbosity is None or _config_context is None:
        return contextlib.nullcontext()
    return _config_context(verbosity=verbosity)


def _objective_decorator(func):
    """An sklearn-style objective func(y_true, y_pred) -> (grad, hess) as train()'s obj."""
    def inner(preds, dmatrix):
        return func(dmatrix.get_label(), preds)
    return inner


def _metric_decorator(func):
    """An sklearn metric func(y_true, y_score) as train()'s custom_metric."""
    def inner(y_score, dmatrix):
        return func.__name__, func(dmatrix.get_label(), y_score)
    return inner


def _convert_ntree_limit(booster, ntree_limit, iteration_range):
    """The deprecated ntree_limit as an iteration range (1.7 warns and refuses both)."""
    if ntree_limit is not None and ntree_limit != 0:
        if iteration_range is not None and iteration_range[1] != 0:
            raise ValueError("Only one of `iteration_range` and `ntree_limit` can be non "
                             "zero.")
        return booster._iteration_range(ntree_limit, (0, 0))
    return iteration_range


@functools.lru_cache(maxsize=None)
def _init_param_names(klass):
    """Named parameters of klass.__init__ (not **kwargs), as sklearn reads them."""
    init = getattr(klass.__init__, "__wrapped__", klass.__init__)
    if init is object.__init__:
        return ()
    return tuple(p.name for p in inspect.signature(init).parameters.values()
                 if p.name != "self" and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL))


def _wrap_evaluation_matrices(missing, X, y, group, qid, sample_weight, base_margin,
                              feature_weights, eval_set, sample_weight_eval_set,
                              base_margin_eval_set, eval_group, eval_qid, create_dmatrix,
                              enable_categorical, feature_types):
    """The training DMatrix and [(DMatrix, "validation_i")] for train(), as 1.7 builds them."""
    train_dmatrix = create_dmatrix(data=X, label=y, group=group, qid=qid,
                                   weight=sample_weight, base_margin=base_margin,
                                   feature_weights=feature_weights, missing=missing,
                                   enable_categorical=enable_categorical,
                                   feature_types=feature_types)
    n_validation = 0 if eval_set is None else len(eval_set)

    def per_eval_set(meta, name):
        if meta is None:
            return [None] * n_validation
        if len(meta) != n_validation:
            raise ValueError(f"{name}'s length does not equal `eval_set`'s length, "
                             f"expecting {n_validation}, got {len(meta)}")
        return meta

    if eval_set is None:
        if any(m is not None for m in (sample_weight_eval_set, base_margin_eval_set,
                                       eval_group, eval_qid)):
            raise ValueError("`eval_set` is not set but one of the other evaluation meta "
                             "info is not None.")
        return train_dmatrix, []
    weights = per_eval_set(sample_weight_eval_set, "sample_weight_eval_set")
    margins = per_eval_set(base_margin_eval_set, "base_margin_eval_set")
    groups = per_eval_set(eval_group, "eval_group")
    qids = per_eval_set(eval_qid, "eval_qid")
    evals = []
    for i, (valid_x, valid_y) in enumerate(eval_set):
        # The training data given again (the same objects) is evaluated on the same matrix.
        if (valid_x is X and valid_y is y and weights[i] is sample_weight
                and margins[i] is base_margin and groups[i] is group and qids[i] is qid):
            evals.append((train_dmatrix, f"validation_{i}"))
            continue
        matrix = create_dmatrix(data=valid_x, label=valid_y, weight=weights[i],
                                group=groups[i], qid=qids[i], base_margin=margins[i],
                                missing=missing, enable_categorical=enable_categorical,
                                feature_types=feature_types)
        evals.append((matrix, f"validation_{i}"))
    return train_dmatrix, evals


class XGBModel(XGBModelBase):
    """XGBoost 1.7's scikit-learn estimator base (``xgboost.XGBModel``) over treering."""

    def __init__(self, max_depth=None, max_leaves=None, max_bin=None, grow_policy=None,
                 learning_rate=None, n_estimators=100, verbosity=None, objective=None,
                 booster=None, tree_method=None, n_jobs=None, gamma=None,
                 min_child_weight=None, max_delta_step=None, subsample=None,
                 sampling_method=None, colsample_bytree=None, colsample_bylevel=None,
                 colsample_bynode=None, reg_alpha=None, reg_lambda=None,
                 scale_pos_weight=None, base_score=None, random_state=None, missing=np.nan,
                 num_parallel_tree=None, monotone_constraints=None,
                 interaction_constraints=None, importance_type=None, gpu_id=None,
                 validate_parameters=None, predictor=None, enable_categorical=False,
                 feature_types=None, max_cat_to_onehot=None, max_cat_threshold=None,
                 eval_metric=None, early_stopping_rounds=None, callbacks=None, **kwargs):
        if not SKLEARN_INSTALLED:
            raise ImportError("sklearn needs to be installed in order to use this module")
        self.n_estimators = n_estimators
        self.objective = objective
        self.max_depth = max_depth
        self.max_leaves = max_leaves
        self.max_bin = max_bin
        self.grow_policy = grow_policy
        self.learning_rate = learning_rate
        self.verbosity = verbosity
        self.booster = booster
        self.tree_method = tree_method
        self.gamma = gamma
        self.min_child_weight = min_child_weight
        self.max_delta_step = max_delta_step
        self.subsample = subsample
        self.sampling_method = sampling_method
        self.colsample_bytree = colsample_bytree
        self.colsample_bylevel = colsample_bylevel
        self.colsample_bynode = colsample_bynode
        self.reg_alpha = reg_alpha
        self.reg_lambda = reg_lambda
        self.scale_pos_weight = scale_pos_weight
        self.base_score = base_score
        self.missing = missing
        self.num_parallel_tree = num_parallel_tree
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.monotone_constraints = monotone_constraints
        self.interaction_constraints = interaction_constraints
        self.importance_type = importance_type
        self.gpu_id = gpu_id
        self.validate_parameters = validate_parameters
        self.predictor = predictor
        self.enable_categorical = enable_categorical
        self.feature_types = feature_types
        self.max_cat_to_onehot = max_cat_to_onehot
        self.max_cat_threshold = max_cat_threshold
        self.eval_metric = eval_metric
        self.early_stopping_rounds = early_stopping_rounds
        self.callbacks = callbacks
        if kwargs:
            self.kwargs = kwargs

    def _more_tags(self):
        # NaN means "missing" to the trees; inputs are validated by DMatrix, not sklearn.
        return {"allow_nan": True, "no_validation": True}

    def __sklearn_is_fitted__(self):
        return hasattr(self, "_Booster")

    def get_booster(self):
        """The fitted Booster; NotFittedError before fit or load_model."""
        if not self.__sklearn_is_fitted__():
            from sklearn.exceptions import NotFittedError
            raise NotFittedError("need to call fit or load_model beforehand")
        return self._Booster

    # ---- parameters -------------------------------------------------------------------
    def set_params(self, **params):
        """Set parameters; unknown names become booster parameters (kept in kwargs)."""
        if not params:
            return self
        for key, value in params.items():
            if hasattr(self, key):
                setattr(self, key, value)
            else:
                if not hasattr(self, "kwargs"):
                    self.kwargs = {}
                self.kwargs[key] = value
        if self.__sklearn_is_fitted__():
            self.get_booster().set_param(_booster_params(self.get_xgb_params()))
        return self

    def get_params(self, deep=True):
        """Every constructor parameter of the class and its XGBoost bases, plus kwargs."""
        names = []
        for klass in reversed(type(self).__mro__):
            if isinstance(klass, type) and issubclass(klass, XGBModel):
                names += [n for n in _init_param_names(klass) if n not in names]
        params = {name: getattr(self, name, None) for name in names}
        if hasattr(self, "kwargs") and isinstance(self.kwargs, dict):
            params.update(self.kwargs)
        # 1.7 draws an int from a RandomState so that the learner gets a plain seed.
        if isinstance(params.get("random_state"), np.random.RandomState):
            params["random_state"] = params["random_state"].randint(np.iinfo(np.int32).max)
        return params

    def get_xgb_params(self):
        """The parameters that go to the learner, under 1.7's (sklearn) names."""
        return {k: v for k, v in self.get_params().items()
                if k not in _WRAPPER_ONLY and not callable(v)}

    def get_num_boosting_rounds(self):
        return self.n_estimators

    def _get_type(self):
        if not hasattr(self, "_estimator_type"):
            raise TypeError("`_estimator_type` undefined.  Please use appropriate mixin to "
                            "define estimator type.")
        return self._estimator_type

    # ---- model files: the estimator's state rides in the booster's "scikit_learn" attr --
    def save_model(self, fname):
        """Save the booster with the estimator's JSON-able attributes (as XGBoost 1.7)."""
        meta = {}
        for key, value in self.__dict__.items():
            if key == "_Booster":
                continue
            if key == "classes_":
                meta[key] = self.classes_.tolist()
                continue
            if key == "feature_types":  # the booster keeps the feature types
                meta[key] = None
                continue
            try:
                json.dumps({key: value})
                meta[key] = value
            except TypeError:
                warnings.warn(f"{key} is not saved in Scikit-Learn meta.", UserWarning)
        meta["_estimator_type"] = self._get_type()
        booster = self.get_booster()
        booster.set_attr(scikit_learn=json.dumps(meta))
        try:
            booster.save_model(fname)
        finally:
            booster.set_attr(scikit_learn=None)

    def load_model(self, fname):
        """Load a model file or buffer (one saved by XGBoost 1.7's estimators too)."""
        # Always a fresh booster: treering's learner refuses to load a model whose
        # objective disagrees with parameters already set on the booster (XGBoost 1.7
        # reuses a fitted estimator's booster and lets the file replace them).
        booster = Booster(_booster_params({"n_jobs": self.n_jobs}))
        booster.load_model(fname)
        self._Booster = booster
        meta_str = booster.attr("scikit_learn")
        if meta_str is None:
            warnings.warn("Loading a native XGBoost model with Scikit-Learn interface.")
            return
        states = {}
        for key, value in json.loads(meta_str).items():
            if key == "classes_":
                self.classes_ = np.array(value)
            elif key == "feature_types":
                self.feature_types = booster.feature_types
            elif key == "_estimator_type":
                if self._get_type() != value:
                    raise TypeError("Loading an estimator with different type. "
                                    f"Expecting: {self._get_type()}, got: {value}")
            else:
                states[key] = value
        self.__dict__.update(states)
        booster.set_attr(scikit_learn=None)

    # ---- fitting ------------------------------------------------------------------------
    def _configure_fit(self, booster, eval_metric, params, early_stopping_rounds,
                       callbacks):
        """Merge fit()'s deprecated arguments with the constructor's (1.7's rules)."""
        model = booster.get_booster() if isinstance(booster, XGBModel) else booster

        def deprecated(name):
            warnings.warn(f"`{name}` in `fit` method is deprecated for better compatibility "
                          f"with scikit-learn, use `{name}` in constructor or`set_params` "
                          "instead.", UserWarning)

        def duplicated(name):
            raise ValueError(f"2 different `{name}` are provided.  Use the one in "
                             "constructor or `set_params` instead.")

        if eval_metric is not None:
            deprecated("eval_metric")
            if self.eval_metric is not None:
                duplicated("eval_metric")
        from_fit = self.eval_metric is None
        eval_metric = eval_metric if from_fit else self.eval_metric
        metric = None
        if eval_metric is not None:
            if callable(eval_metric) and from_fit:
                metric = eval_metric  # fit()'s old form: train()'s (predt, dmatrix) style
            elif callable(eval_metric):
                metric = _metric_decorator(eval_metric)
            else:
                params.update({"eval_metric": eval_metric})
        if early_stopping_rounds is not None:
            deprecated("early_stopping_rounds")
            if self.early_stopping_rounds is not None:
                duplicated("early_stopping_rounds")
        if self.early_stopping_rounds is not None:
            early_stopping_rounds = self.early_stopping_rounds
        if callbacks is not None:
            deprecated("callbacks")
            if self.callbacks is not None:
                duplicated("callbacks")
        callbacks = self.callbacks if self.callbacks is not None else callbacks
        if self.enable_categorical and params.get("tree_method") not in (
                "gpu_hist", "approx", "hist"):
            raise ValueError("Experimental support for categorical data is not implemented "
                             "for current tree method yet.")
        return model, metric, params, early_stopping_rounds, callbacks

    def _create_dmatrix(self, data, weight=None, **kwargs):
        # XGBoost 1.7 builds a QuantileDMatrix for hist; treering's hist cuts come from the
        # DMatrix itself, so a DMatrix serves both. Weights go in after the query groups so
        # that the library judges per-group weights knowing the groups (it refuses them
        # with a message that says so).
        with _verbosity_context(self.verbosity):
            matrix = DMatrix(_array_like(data), **kwargs, nthread=self.n_jobs)
            if weight is not None:
                matrix.set_weight(weight)
        return matrix

    def _set_evaluation_result(self, evals_result):
        if evals_result:
            self.evals_result_ = evals_result

    def _train(self, params, train_dmatrix, evals, obj, xgb_model, eval_metric,
               early_stopping_rounds, verbose, callbacks, allow_custom_metric=True):
        """Configure and run train(); sets _Booster and evals_result_. Returns params."""
        model, metric, params, early_stopping_rounds, callbacks = self._configure_fit(
            xgb_model, eval_metric, params, early_stopping_rounds, callbacks)
        if callable(metric) and not allow_custom_metric:
            raise ValueError("Custom evaluation metric is not yet supported for XGBRanker.")
        evals_result = {}
        with _verbosity_context(self.verbosity):
            self._Booster = train(_booster_params(params), train_dmatrix,
                                  self.get_num_boosting_rounds(), evals=evals,
                                  early_stopping_rounds=early_stopping_rounds,
                                  evals_result=evals_result, obj=obj, custom_metric=metric,
                                  verbose_eval=verbose, xgb_model=model, callbacks=callbacks)
        self._set_evaluation_result(evals_result)
        return params

    @_deprecate_positional_args
    def fit(self, X, y, *, sample_weight=None, base_margin=None, eval_set=None,
            eval_metric=None, early_stopping_rounds=None, verbose=True, xgb_model=None,
            sample_weight_eval_set=None, base_margin_eval_set=None, feature_weights=None,
            callbacks=None):
        """Fit the model (refits from scratch; pass xgb_model to continue training)."""
        train_dmatrix, evals = _wrap_evaluation_matrices(
            self.missing, X, y, None, None, sample_weight, base_margin, feature_weights,
            eval_set, sample_weight_eval_set, base_margin_eval_set, None, None,
            self._create_dmatrix, self.enable_categorical, self.feature_types)
        params = self.get_xgb_params()
        obj = None
        if callable(self.objective):
            obj = _objective_decorator(self.objective)
            params["objective"] = "reg:squarederror"
        self._train(params, train_dmatrix, evals, obj, xgb_model, eval_metric,
                    early_stopping_rounds, verbose, callbacks)
        return self

    # ---- prediction ---------------------------------------------------------------------
    def _can_use_inplace_predict(self):
        # Read directly, not through get_xgb_params(): this runs on every predict call.
        predictor = self.predictor
        if isinstance(getattr(self, "kwargs", None), dict):
            predictor = self.kwargs.get("predictor", predictor)
        return predictor in ("auto", None) and self.booster != "gblinear"

    def _get_iteration_range(self, iteration_range):
        if iteration_range is None or iteration_range[1] == 0:
            try:  # the best iteration of early stopping (set by train() after every fit)
                iteration_range = (0, self.best_iteration + 1)
            except AttributeError:
                iteration_range = (0, 0)
        if self.booster == "gblinear":
            iteration_range = (0, 0)
        return iteration_range

    def predict(self, X, output_margin=False, ntree_limit=None, validate_features=True,
                base_margin=None, iteration_range=None):
        """Predict with X (up to best_iteration when the model has one)."""
        with _verbosity_context(self.verbosity):
            return self._predict(X, output_margin, ntree_limit, validate_features,
                                 base_margin, iteration_range)

    def _predict(self, X, output_margin, ntree_limit, validate_features, base_margin,
                 iteration_range):
        booster = self.get_booster()
        X = _array_like(X)
        iteration_range = _convert_ntree_limit(booster, ntree_limit, iteration_range)
        iteration_range = self._get_iteration_range(iteration_range)
        if self._can_use_inplace_predict():
            try:
                return booster.inplace_predict(
                    data=X, iteration_range=iteration_range,
                    predict_type="margin" if output_margin else "value",
                    missing=self.missing, base_margin=base_margin,
                    validate_features=validate_features)
            except TypeError:  # a kind of data inplace_predict does not read (CSC, COO...)
                pass
        test = DMatrix(X, base_margin=base_margin, missing=self.missing, nthread=self.n_jobs,
                       feature_types=self.feature_types,
                       enable_categorical=self.enable_categorical)
        return booster.predict(data=test, iteration_range=iteration_range,
                               output_margin=output_margin,
                               validate_features=validate_features)

    def apply(self, X, ntree_limit=0, iteration_range=None):
        """The leaf index each sample reaches in every tree, shape (n_samples, n_trees)."""
        booster = self.get_booster()
        iteration_range = _convert_ntree_limit(booster, ntree_limit, iteration_range)
        iteration_range = self._get_iteration_range(iteration_range)
        with _verbosity_context(self.verbosity):
            # 1.7 leaves out enable_categorical here and so fails on categorical frames.
            test = DMatrix(_array_like(X), missing=self.missing,
                           feature_types=self.feature_types, nthread=self.n_jobs,
                           enable_categorical=self.enable_categorical)
            return booster.predict(test, pred_leaf=True, iteration_range=iteration_range)

    # ---- fitted attributes --------------------------------------------------------------
    def evals_result(self):
        """{"validation_i": {metric: [values per round]}} of the last fit's eval_set."""
        if getattr(self, "evals_result_", None) is None:
            raise XGBoostError("No evaluation result, `eval_set` is not used during "
                               "training.")
        return self.evals_result_

    @property
    def n_features_in_(self):
        return self.get_booster().num_features()

    @property
    def feature_names_in_(self):
        names = self.get_booster().feature_names
        if names is None:
            raise AttributeError("`feature_names_in_` is defined only when `X` has feature "
                                 "names that are all strings.")
        return np.array(names)

    def _early_stopping_attr(self, attr):
        try:
            return getattr(self.get_booster(), attr)
        except AttributeError as err:
            raise AttributeError(f"`{attr}` in only defined when early stopping is "
                                 "used.") from err

    @property
    def best_score(self):
        return float(self._early_stopping_attr("best_score"))

    @property
    def best_iteration(self):
        return int(self._early_stopping_attr("best_iteration"))

    @property
    def best_ntree_limit(self):
        return int(self._early_stopping_attr("best_ntree_limit"))

    @property
    def feature_importances_(self):
        """Importances of `importance_type` (default gain), normalised to sum to 1."""
        booster = self.get_booster()
        default = "weight" if self.booster == "gblinear" else "gain"
        score = booster.get_score(importance_type=self.importance_type or default)
        names = booster.feature_names
        if names is None:
            names = [f"f{i}" for i in range(self.n_features_in_)]
        values = np.array([score.get(f, 0.0) for f in names], dtype=np.float32)
        total = values.sum()
        return values if total == 0 else values / total

    @property
    def coef_(self):
        """Weights of a gblinear model: [n_features], or [n_classes, n_features] reshaped from
        the feature-major dump as XGBoost 1.7 reshapes it."""
        if self.get_xgb_params()["booster"] != "gblinear":
            raise AttributeError(f"Coefficients are not defined for Booster type "
                                 f"{self.booster}")
        b = self.get_booster()
        coef = np.array(json.loads(b.get_dump(dump_format="json")[0])["weight"])
        n_classes = getattr(self, "n_classes_", None)
        if n_classes is not None and n_classes > 2:
            assert len(coef.shape) == 1
            assert coef.shape[0] % n_classes == 0
            coef = coef.reshape((n_classes, -1))
        return coef

    @property
    def intercept_(self):
        """Biases of a gblinear model: [1] or [n_classes]."""
        if self.get_xgb_params()["booster"] != "gblinear":
            raise AttributeError(f"Intercept (bias) is not defined for Booster type "
                                 f"{self.booster}")
        b = self.get_booster()
        return np.array(json.loads(b.get_dump(dump_format="json")[0])["bias"])


def _check_rf_callback(early_stopping_rounds, callbacks):
    if early_stopping_rounds is not None or callbacks is not None:
        raise NotImplementedError("`early_stopping_rounds` and `callbacks` are not "
                                  "implemented for random forest.")


__all__ = ["XGBModel", "TrainingCallback", "SKLEARN_INSTALLED"]
