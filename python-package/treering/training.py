"""train(): XGBoost 1.7's training loop over the callback container."""
import copy
import os
import warnings

from .callback import CallbackContainer, EarlyStopping, EvaluationMonitor, TrainingCallback
from .core import Booster, DMatrix, XGBoostError, _deprecate_positional_args


def _configure_custom_metric(feval, custom_metric):
    if feval is not None and custom_metric is not None:
        raise ValueError("Both `feval` and `custom_metric` are supplied.  Use `custom_metric` "
                         "instead.")
    if feval is not None:
        warnings.warn("`feval` is deprecated, use `custom_metric` instead.  They have "
                      "different behavior when custom objective is also used.",
                      UserWarning)
        return feval
    return custom_metric


def _restartable_job():
    """In a job whose launcher restarts dead workers (treering-submit --local-num-attempt,
    which sets TREERING_MAX_ATTEMPTS > 1), train() checkpoints every round as the CLI does."""
    from . import collective  # pylint: disable=import-outside-toplevel
    try:
        attempts = int(os.environ.get("TREERING_MAX_ATTEMPTS", "1"))
    except ValueError:
        return False
    return attempts > 1 and bool(collective.is_distributed())


@_deprecate_positional_args
def train(params, dtrain, num_boost_round=10, *, evals=None, obj=None, feval=None,
          maximize=None, early_stopping_rounds=None, evals_result=None, verbose_eval=True,
          xgb_model=None, callbacks=None, custom_metric=None):
    """Train a booster for `num_boost_round` rounds (XGBoost 1.7's xgboost.train)."""
    callbacks = [] if callbacks is None else copy.copy(list(callbacks))
    metric_fn = _configure_custom_metric(feval, custom_metric)
    evals = list(evals) if evals else []
    for item in evals:
        if not isinstance(item[0], DMatrix):
            raise TypeError("First item of eval set must be DMatrix")
        if not isinstance(item[1], str):
            raise TypeError("Second item of eval set must be str")
    if not isinstance(dtrain, DMatrix):
        raise TypeError(f"dtrain must be a DMatrix, got {type(dtrain).__name__}")
    bst = Booster(params, [dtrain] + [d[0] for d in evals], model_file=xgb_model)
    for cb in callbacks:
        if not isinstance(cb, TrainingCallback):
            raise TypeError("Old style callback is deprecated.")
    if verbose_eval:
        callbacks.append(EvaluationMonitor(period=1 if verbose_eval is True else verbose_eval))
    if early_stopping_rounds:
        callbacks.append(EarlyStopping(rounds=early_stopping_rounds, maximize=maximize))
    if _restartable_job() and not any(hasattr(cb, "resume_round") for cb in callbacks):
        # Last, so it saves each round's final state: a restarted worker resumes from it.
        from .dist_checkpoint import RabitCheckpoint  # pylint: disable=import-outside-toplevel
        callbacks.append(RabitCheckpoint(callbacks))
    container = CallbackContainer(callbacks, metric=metric_fn,
                                  output_margin=callable(obj) or metric_fn is feval)
    bst = container.before_training(bst)
    # A distributed worker restarted mid-job resumes after the survivors' checkpoint: a
    # callback with `resume_round(container)` (treering.dask's checkpoint) says where.
    start_round = 0
    for cb in callbacks:
        if hasattr(cb, "resume_round"):
            start_round = max(start_round, cb.resume_round(container))
    for i in range(start_round, num_boost_round):
        if container.before_iteration(bst, i, dtrain, evals):
            break
        bst.update(dtrain, i, obj)
        if container.after_iteration(bst, i, dtrain, evals):
            break
    bst = container.after_training(bst)
    if evals_result is not None:
        evals_result.update(container.history)
    # A copy serialises and reloads the booster, dropping training-only state.
    return bst.copy()


__all__ = ["train", "XGBoostError"]
