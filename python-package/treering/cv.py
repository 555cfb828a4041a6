"""cv(): XGBoost 1.7's n-fold cross validation (folds drawn with numpy's global seed)."""
import copy

import numpy as np

from .callback import CallbackContainer, EarlyStopping, EvaluationMonitor, TrainingCallback
from .core import Booster
from .training import _configure_custom_metric


class CVPack:
    """One fold: its train/test matrices and booster."""

    def __init__(self, dtrain, dtest, param):
        self.dtrain = dtrain
        self.dtest = dtest
        self.watchlist = [(dtrain, "train"), (dtest, "test")]
        self.bst = Booster(param, [dtrain, dtest])

    def __getattr__(self, name):
        return getattr(self.bst, name)

    def update(self, iteration, fobj):
        self.bst.update(self.dtrain, iteration, fobj)

    def eval(self, iteration, feval, output_margin):
        return self.bst.eval_set(self.watchlist, iteration, feval, output_margin)


class _PackedBooster:
    """The folds seen by callbacks as one model."""

    def __init__(self, cvfolds):
        self.cvfolds = cvfolds

    def update(self, iteration, obj):
        for fold in self.cvfolds:
            fold.update(iteration, obj)

    def eval(self, iteration, feval, output_margin):
        return [f.eval(iteration, feval, output_margin) for f in self.cvfolds]

    def set_attr(self, **kwargs):
        for fold in self.cvfolds:
            fold.bst.set_attr(**kwargs)

    def attr(self, key):
        return self.cvfolds[0].bst.attr(key)

    def set_param(self, params, value=None):
        for fold in self.cvfolds:
            fold.bst.set_param(params, value)

    def num_boosted_rounds(self):
        return self.cvfolds[0].num_boosted_rounds()

    @property
    def best_iteration(self):
        return int(self.cvfolds[0].bst.attr("best_iteration"))

    @property
    def best_score(self):
        return float(self.cvfolds[0].bst.attr("best_score"))


def _groups_to_rows(groups, boundaries):
    return np.concatenate([np.arange(boundaries[g], boundaries[g + 1]) for g in groups])


def _fold_params(param, evals):
    return list(param.items()) + [("eval_metric", m) for m in evals]


def _mkgroupfold(dall, nfold, param, evals, fpreproc, shuffle):
    boundaries = dall.get_uint_info("group_ptr")
    sizes = np.diff(boundaries)
    idx = np.random.permutation(len(sizes)) if shuffle else np.arange(len(sizes))
    out_groups = np.array_split(idx, nfold)
    in_groups = [np.concatenate([out_groups[i] for i in range(nfold) if i != k])
                 for k in range(nfold)]
    folds = []
    for k in range(nfold):
        dtrain = dall.slice(_groups_to_rows(in_groups[k], boundaries), allow_groups=True)
        dtrain.set_group(sizes[in_groups[k]])
        dtest = dall.slice(_groups_to_rows(out_groups[k], boundaries), allow_groups=True)
        dtest.set_group(sizes[out_groups[k]])
        tparam = param
        if fpreproc is not None:
            dtrain, dtest, tparam = fpreproc(dtrain, dtest, param.copy())
        folds.append(CVPack(dtrain, dtest, _fold_params(tparam, evals)))
    return folds


def _stratified_folds(nfold, seed):
    """XGBoost 1.7's stratified split: scikit-learn's shuffled StratifiedKFold on the
    labels, seeded with cv's `seed` (the same seed gives the same folds)."""
    try:
        from sklearn.model_selection import StratifiedKFold
    except ImportError as err:
        raise ImportError("cv(stratified=True) needs scikit-learn's StratifiedKFold; install "
                          "scikit-learn or pass `folds`") from err
    return StratifiedKFold(n_splits=nfold, shuffle=True, random_state=seed)


def _mknfold(dall, nfold, param, seed, evals, fpreproc, stratified, folds, shuffle):
    np.random.seed(seed)  # as XGBoost: the same seed gives the same folds
    if stratified and folds is None:  # as 1.7, user folds win over `stratified`
        folds = _stratified_folds(nfold, seed)
    if folds is None:
        if len(dall.get_uint_info("group_ptr")) > 1:
            return _mkgroupfold(dall, nfold, param, evals, fpreproc, shuffle)
        idx = np.random.permutation(dall.num_row()) if shuffle else np.arange(dall.num_row())
        out_idset = np.array_split(idx, nfold)
        in_idset = [np.concatenate([out_idset[i] for i in range(nfold) if i != k])
                    for k in range(nfold)]
    else:
        try:
            in_idset = [f[0] for f in folds]
            out_idset = [f[1] for f in folds]
        except TypeError:
            splits = list(folds.split(X=dall.get_label(), y=dall.get_label()))
            in_idset = [f[0] for f in splits]
            out_idset = [f[1] for f in splits]
        nfold = len(out_idset)
    packs = []
    for k in range(nfold):
        dtrain, dtest = dall.slice(in_idset[k]), dall.slice(out_idset[k])
        tparam = param
        if fpreproc is not None:
            dtrain, dtest, tparam = fpreproc(dtrain, dtest, param.copy())
        packs.append(CVPack(dtrain, dtest, _fold_params(tparam, evals)))
    return packs


def cv(params, dtrain, num_boost_round=10, nfold=3, stratified=False, folds=None, metrics=(),
       obj=None, feval=None, maximize=None, early_stopping_rounds=None, fpreproc=None,
       as_pandas=True, verbose_eval=None, show_stdv=True, seed=0, callbacks=None,
       shuffle=True, custom_metric=None):
    """Cross-validate; returns {"train-<metric>-mean": [...], ...} (a DataFrame with pandas)."""
    if isinstance(metrics, str):
        metrics = [metrics]
    if isinstance(params, list):
        listed = [v for k, v in params if k == "eval_metric"]
        params = dict(params)
        if "eval_metric" in params:
            params["eval_metric"] = listed
    else:
        params = dict(params)
    if not metrics and "eval_metric" in params:
        metric = params["eval_metric"]
        metrics = metric if isinstance(metric, list) else [metric]
    params.pop("eval_metric", None)
    results = {}
    cvfolds = _mknfold(dtrain, nfold, params, seed, list(metrics), fpreproc, stratified, folds,
                       shuffle)
    metric_fn = _configure_custom_metric(feval, custom_metric)
    callbacks = [] if callbacks is None else copy.copy(list(callbacks))
    for cb in callbacks:
        if not isinstance(cb, TrainingCallback):
            raise TypeError("Old style callback is deprecated.")
    if verbose_eval:
        period = 1 if verbose_eval is True else verbose_eval
        callbacks.append(EvaluationMonitor(period=period, show_stdv=show_stdv))
    if early_stopping_rounds:
        callbacks.append(EarlyStopping(rounds=early_stopping_rounds, maximize=maximize))
    container = CallbackContainer(callbacks, metric=metric_fn, is_cv=True,
                                  output_margin=callable(obj) or metric_fn is feval)
    booster = _PackedBooster(cvfolds)
    container.before_training(booster)
    for i in range(num_boost_round):
        if container.before_iteration(booster, i, dtrain, None):
            break
        booster.update(i, obj)
        should_break = container.after_iteration(booster, i, dtrain, None)
        for key, mean, std in container.aggregated_cv:
            results.setdefault(key + "-mean", []).append(mean)
            results.setdefault(key + "-std", []).append(std)
        if should_break:
            for key in results:
                results[key] = results[key][: booster.best_iteration + 1]
            break
    if as_pandas:
        try:
            import pandas as pd  # optional, as in XGBoost
            results = pd.DataFrame.from_dict(results)
        except ImportError:
            pass
    container.after_training(booster)
    return results
