"""Training callbacks with XGBoost 1.7's protocol: EarlyStopping, EvaluationMonitor."""
import collections
import collections.abc
import os
import pickle
import sys

import numpy as np

from .core import Booster, XGBoostError


class TrainingCallback:
    """Base class: every hook returns False (go on) / the model, as in XGBoost."""

    def before_training(self, model):
        return model

    def after_training(self, model):
        return model

    def before_iteration(self, model, epoch, evals_log):
        return False

    def after_iteration(self, model, epoch, evals_log):
        return False


def _parallel_trees(model):
    import json
    try:
        gbm = json.loads(model.save_config())["learner"]["gradient_booster"]
        if gbm.get("name") == "gblinear":  # XGBoost 1.7: no trees, best_ntree_limit 0
            return 0
        params = gbm.get("gbtree_model_param") or gbm.get("gbtree", {}).get(
            "gbtree_model_param", {})
        return int(params.get("num_parallel_tree", 1) or 1)
    except (XGBoostError, KeyError, ValueError):
        return 1


def _aggcv(lines):
    """Mean and standard deviation over folds of each `data-metric:value` column."""
    columns = {}
    for line in lines:
        for index, item in enumerate(line.split()[1:]):
            name, value = item.split(":")
            columns.setdefault((index, name), []).append(float(value))
    return [(name, np.mean(values), np.std(values))
            for (_, name), values in sorted(columns.items(), key=lambda kv: kv[0][0])]


class CallbackContainer:
    """Runs the callbacks and keeps the evaluation history (train's evals_result)."""

    def __init__(self, callbacks, metric=None, output_margin=True, is_cv=False):
        self.callbacks = list(callbacks)
        for cb in self.callbacks:
            if not isinstance(cb, TrainingCallback):
                raise TypeError("callback must be an instance of `TrainingCallback`.")
        self.metric = metric
        self.history = collections.OrderedDict()
        self._output_margin = output_margin
        self.is_cv = is_cv
        self.aggregated_cv = None

    def before_training(self, model):
        for cb in self.callbacks:
            model = cb.before_training(model=model)
        return model

    def after_training(self, model):
        for cb in self.callbacks:
            model = cb.after_training(model=model)
        if self.is_cv:
            return model
        parallel = _parallel_trees(model)
        if model.attr("best_score") is not None:
            model.best_score = float(model.attr("best_score"))
            model.best_iteration = int(model.attr("best_iteration"))
            model.set_attr(best_ntree_limit=str((model.best_iteration + 1) * parallel))
            model.best_ntree_limit = int(model.attr("best_ntree_limit"))
        else:
            # XGBoost (since 1.4) sets these even without early stopping.
            model.best_iteration = model.num_boosted_rounds() - 1
            model.set_attr(best_iteration=str(model.best_iteration))
            model.best_ntree_limit = (model.best_iteration + 1) * parallel
            model.set_attr(best_ntree_limit=str(model.best_ntree_limit))
        return model

    def before_iteration(self, model, epoch, dtrain, evals):
        return any(cb.before_iteration(model, epoch, self.history) for cb in self.callbacks)

    def after_iteration(self, model, epoch, dtrain, evals):
        if self.is_cv:
            scores = _aggcv(model.eval(epoch, self.metric, self._output_margin))
            self.aggregated_cv = scores
            scores = [(name, (mean, std)) for name, mean, std in scores]
        else:
            evals = [] if evals is None else evals
            for _, name in evals:
                assert name.find("-") == -1, "Dataset name should not contain `-`"
            score = model.eval_set(evals, epoch, self.metric, self._output_margin)
            scores = [(item.split(":")[0], float(item.split(":")[1]))
                      for item in score.split()[1:]]
        for name, value in scores:
            data_name, _, metric_name = name.partition("-")
            self.history.setdefault(data_name, collections.OrderedDict()).setdefault(
                metric_name, []).append(value)
        return any(cb.after_iteration(model, epoch, self.history) for cb in self.callbacks)


class LearningRateScheduler(TrainingCallback):
    """Set the learning rate after each round: `learning_rates(epoch)` or a sequence.

    As in XGBoost 1.7 the rate is set after round `epoch`, so it applies from the next one.
    """

    def __init__(self, learning_rates):
        assert callable(learning_rates) or isinstance(learning_rates, collections.abc.Sequence)
        if callable(learning_rates):
            self.learning_rates = learning_rates
        else:
            self.learning_rates = lambda epoch: learning_rates[epoch]

    def after_iteration(self, model, epoch, evals_log):
        model.set_param("learning_rate", self.learning_rates(epoch))
        return False


class TrainingCheckPoint(TrainingCallback):
    """Save the model every `iterations` rounds as `name_<epoch>.json` (or `.pkl`)."""

    def __init__(self, directory, name="model", as_pickle=False, iterations=100):
        self._path = os.fspath(directory)
        self._name = name
        self._as_pickle = as_pickle
        self._iterations = iterations
        self._epoch = 0

    def after_iteration(self, model, epoch, evals_log):
        if self._epoch == self._iterations:
            path = os.path.join(self._path, self._name + "_" + str(epoch)
                                + (".pkl" if self._as_pickle else ".json"))
            self._epoch = 0
            if self._as_pickle:
                with open(path, "wb") as out:
                    pickle.dump(model, out)
            else:
                model.save_model(path)
        self._epoch += 1
        return False


class EarlyStopping(TrainingCallback):
    """Stop when the last metric on the last eval set has not improved for `rounds`."""

    def __init__(self, rounds, metric_name=None, data_name=None, maximize=None,
                 save_best=False, min_delta=0.0):
        self.data = data_name
        self.metric_name = metric_name
        self.rounds = rounds
        self.save_best = save_best
        self.maximize = maximize
        self.stopping_history = {}
        self._min_delta = min_delta
        if self._min_delta < 0:
            raise ValueError("min_delta must be greater or equal to 0.")
        self.current_rounds = 0
        self.best_scores = {}
        self.starting_round = 0

    def before_training(self, model):
        self.starting_round = model.num_boosted_rounds()
        return model

    def _update_rounds(self, score, name, metric, model, epoch):
        if self.maximize is None:
            maximize_metrics = ("auc", "aucpr", "map", "ndcg", "auc@", "aucpr@", "map@",
                                "ndcg@")
            self.maximize = metric != "mape" and any(
                metric.startswith(x) for x in maximize_metrics)
        def get_s(value):  # cv scores are (mean, std)
            return value[0] if isinstance(value, tuple) else value

        best = get_s(self.best_scores.get(name, {}).get(metric, [0])[-1])
        if self.maximize:
            improved = bool(np.greater(get_s(score) - self._min_delta, best))
        else:
            improved = bool(np.greater(best - self._min_delta, get_s(score)))
        if not self.stopping_history:
            self.current_rounds = 0
            self.stopping_history[name] = {metric: [score]}
            self.best_scores[name] = {metric: [score]}
            model.set_attr(best_score=str(score), best_iteration=str(epoch))
        elif not improved:
            self.stopping_history[name][metric].append(score)
            self.current_rounds += 1
        else:
            self.stopping_history[name][metric].append(score)
            self.best_scores[name][metric].append(score)
            model.set_attr(best_score=str(score), best_iteration=str(epoch))
            self.current_rounds = 0
        return self.current_rounds >= self.rounds

    def after_iteration(self, model, epoch, evals_log):
        epoch += self.starting_round  # training continuation
        assert len(evals_log.keys()) >= 1, \
            "Must have at least 1 validation dataset for early stopping."
        if self.data:
            if self.data not in evals_log:
                raise ValueError("No dataset named:", self.data)
            data_name = self.data
        else:
            data_name = list(evals_log.keys())[-1]
        data_log = evals_log[data_name]
        metric_name = self.metric_name or list(data_log.keys())[-1]
        return self._update_rounds(data_log[metric_name][-1], data_name, metric_name, model,
                                   epoch)

    def after_training(self, model):
        try:
            if self.save_best:
                model = model[: int(model.attr("best_iteration")) + 1]
        except XGBoostError as err:
            raise XGBoostError("`save_best` is not applicable to current booster") from err
        return model


class EvaluationMonitor(TrainingCallback):
    """Print `[epoch]\\tdata-metric:score` every `period` rounds (and the last one)."""

    def __init__(self, rank=0, period=1, show_stdv=False):
        assert period > 0
        self.printer_rank = rank
        self.show_stdv = show_stdv
        self.period = period
        self._latest = None

    def after_iteration(self, model, epoch, evals_log):
        if not evals_log:
            return False
        msg = f"[{epoch}]"
        for data, metrics in evals_log.items():
            for metric_name, log in metrics.items():
                last = log[-1]
                if isinstance(last, tuple) and self.show_stdv:
                    msg += f"\t{data + '-' + metric_name}:{last[0]:.5f}+{last[1]:.5f}"
                else:
                    score = last[0] if isinstance(last, tuple) else last
                    msg += f"\t{data + '-' + metric_name}:{score:.5f}"
        msg += "\n"
        if epoch % self.period == 0 or self.period == 1:
            self._print(msg)
            self._latest = None
        else:
            self._latest = msg
        return False

    def _print(self, msg):
        # In a distributed job only `printer_rank` prints, through the communicator (the
        # tracker's console), as XGBoost 1.7; alone, the collective prints to stdout.
        from . import collective  # pylint: disable=import-outside-toplevel
        if not collective.is_distributed():
            sys.stdout.write(msg)
            sys.stdout.flush()
        elif collective.get_rank() == self.printer_rank:
            collective.communicator_print(msg)

    def after_training(self, model):
        if self._latest is not None:
            self._print(self._latest)
        return model


__all__ = ["TrainingCallback", "CallbackContainer", "LearningRateScheduler",
           "TrainingCheckPoint", "EarlyStopping", "EvaluationMonitor", "Booster"]
