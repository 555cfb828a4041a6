"""treering.dask.train: one rank per Dask worker, a tracker in the client process, and
recovery from a worker that dies mid-training.

Each worker holding training partitions runs one task (its rank, ``DMLC_TASK_ID`` = the
rank). The tracker takes restarts (``max_attempts``), so the workers run the robust engine
and checkpoint the model after every round. When a worker process dies, Dask reruns its
task (recomputing the partitions it held, from their graph) on the restarted worker; the
task counts its attempt in the scheduler's metadata and rejoins with the same task id, gets
the survivors' checkpoint and goes on: the model is the one of a run without the failure.
When the task cannot be rerun (its data was scattered, not computed) the call fails within
the timeouts, naming the worker and the partitions lost, and the tracker aborts the job.
"""
import threading
import time
import uuid

from .callback import EarlyStopping
from .dask_data import local_dmatrix
from .core import XGBoostError, _deprecate_positional_args

_ACTIVE_RANK = threading.Lock()  # held while this process runs a rank of some job
_DEFAULTS = {"timeout": 600, "max_attempts": 4, "recovery_timeout": 60,
             "bootstrap_timeout": 120}


def _option(name):
    import dask  # pylint: disable=import-outside-toplevel
    return dask.config.get("treering." + name, _DEFAULTS[name])


class _Secret:
    """The tracker's worker arguments: the job token must not reach Dask's logs of a
    task's arguments, so the repr hides them."""

    def __init__(self, values):
        self.values = values

    def __repr__(self):
        return "<treering tracker arguments>"


def _next_attempt(job_id, rank):
    """0 the first time this rank's task runs in the job, 1 after a restart, ..."""
    from distributed import get_client  # pylint: disable=import-outside-toplevel
    client = get_client()
    key = ["treering-dask", job_id, str(rank)]
    attempt = int(client.get_metadata(key, -1)) + 1
    client.set_metadata(key, attempt)
    return attempt


def _rank_task(job_id, rank, envs, params, train_parts, train_args, evals_parts, evals_args,
               eval_names, num_boost_round, options):
    # pylint: disable=too-many-arguments,import-outside-toplevel
    # One communicator per process: two ranks (of this job or of two concurrent train()
    # calls) cannot share a worker process.
    if not _ACTIVE_RANK.acquire(blocking=False):
        raise XGBoostError(f"rank {rank}: this worker process already runs a rank of a "
                           "treering.dask job (one communicator per process); run one "
                           "train() at a time on a cluster")
    try:
        return _run_rank(job_id, rank, envs, params, train_parts, train_args, evals_parts,
                         evals_args, eval_names, num_boost_round, options)
    finally:
        _ACTIVE_RANK.release()


def _run_rank(job_id, rank, envs, params, train_parts, train_args, evals_parts, evals_args,
              eval_names, num_boost_round, options):
    # pylint: disable=too-many-arguments,import-outside-toplevel
    from distributed import get_worker
    from . import collective
    from .dist_checkpoint import RabitCheckpoint
    from .training import train as local_train
    attempt = _next_attempt(job_id, rank)
    params = dict(params)
    params.setdefault("nthread", get_worker().state.nthreads)
    dtrain = local_dmatrix(train_parts, train_args)
    evals = [(local_dmatrix(p, a), name) for p, a, name in
             zip(evals_parts, evals_args, eval_names)]
    callbacks = list(options["callbacks"] or [])
    if options["early_stopping_rounds"]:
        callbacks.append(EarlyStopping(rounds=options["early_stopping_rounds"]))
    callbacks.append(RabitCheckpoint(callbacks))  # last: saves the round's final state
    history = {}
    with collective.CommunicatorContext(**envs.values, DMLC_TASK_ID=str(rank),
                                        DMLC_NUM_ATTEMPT=attempt):
        booster = local_train(params, dtrain, num_boost_round,
                              evals=[e for e in evals if e[0] is not None], obj=options["obj"],
                              custom_metric=options["custom_metric"], evals_result=history,
                              verbose_eval=options["verbose_eval"],
                              xgb_model=options["xgb_model"], callbacks=callbacks)
    if rank != 0:
        return None
    return {"booster": booster, "history": history}


def _assign_ranks(dtrain, evals):
    """Workers holding training partitions: rank i is workers[i], ordered by the first
    partition each holds (rank 0 has partition 0; each rank's rows in partition order, so
    the ranks' data is the CLI's sharding when the partitions are its shards). Evaluation
    partitions go to their holder's rank, or round-robin when their holder trains nothing."""
    worker_map = dtrain.refresh_workers()
    workers = sorted(worker_map, key=lambda w: min(worker_map[w]))
    if not workers:
        raise ValueError("dtrain: the DaskDMatrix has no partitions")
    train_parts = [[dtrain.parts[i] for i in dtrain.worker_map[w]] for w in workers]
    evals_parts = []
    for deval, _ in evals:
        per_rank = [[] for _ in workers]
        for index, (holder, indices) in enumerate(sorted(deval.refresh_workers().items())):
            rank = workers.index(holder) if holder in workers else index % len(workers)
            per_rank[rank].extend(deval.parts[i] for i in indices)
        evals_parts.append(per_rank)
    return workers, train_parts, evals_parts


def _partition_indices(dmatrix, futures):
    keys = {f.key for f in futures}
    return [i for i, f in enumerate(dmatrix.parts) if f.key in keys]


def _failure(rank_futures, workers, dtrain, train_parts, reason):
    """XGBoostError naming the failed ranks' workers and the partitions no longer held."""
    lost = []
    for rank, parts in enumerate(train_parts):
        missing = [f for f in parts if f.status != "finished"]
        if missing or rank_futures[rank].status in ("error", "cancelled", "lost"):
            lost.append(f"rank {rank} (worker {workers[rank]}): training partitions "
                        f"{_partition_indices(dtrain, missing) or 'none'} lost")
    detail = "; ".join(lost) if lost else "no partition lost"
    return XGBoostError(f"treering.dask.train failed: {reason} [{detail}]")


def _tracker_host(client):
    """The address of this (the client's) host on the route to the scheduler: the tracker
    runs here, and the workers reach it as they reach the scheduler. `xgboost.scheduler_address`
    in dask.config overrides it (as in XGBoost 1.7)."""
    import socket  # pylint: disable=import-outside-toplevel
    import dask  # pylint: disable=import-outside-toplevel
    configured = dask.config.get("xgboost.scheduler_address", None)
    if configured:
        return configured.split("://")[-1].rsplit(":", 1)[0]
    address = client.scheduler.address.split("://")[-1]  # tcp://host:port
    host, _, port = address.rpartition(":")
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect((host.strip("[]"), int(port)))  # no packet is sent
        return probe.getsockname()[0]
    except (OSError, ValueError):
        return "127.0.0.1"
    finally:
        probe.close()


def _scheduler_workers(dask_scheduler):
    return list(dask_scheduler.workers)


class _Job:
    """The rank tasks of one train() call, each pinned to one worker. A task whose worker
    died is resubmitted (same rank and task id, next attempt) on a live worker that runs no
    other rank: Dask itself would rerun it, but could place it beside a running rank (one
    communicator per process) or wait for the dead address."""

    def __init__(self, client, job_id, workers, common, train_parts, evals_parts):
        self.client, self.job_id, self.common = client, job_id, common
        self.workers = list(workers)
        self.train_parts, self.evals_parts = train_parts, evals_parts
        self.resubmits = [0] * len(workers)
        self._asked = 0.0
        self.futures = [self._submit(rank) for rank in range(len(workers))]

    def _submit(self, rank):
        envs, params, train_args, evals_args, eval_names, rounds, options = self.common
        return self.client.submit(
            _rank_task, self.job_id, rank, envs, params, self.train_parts[rank], train_args,
            [e[rank] for e in self.evals_parts], evals_args, eval_names, rounds, options,
            key=f"treering-train-{self.job_id}-rank{rank}-{self.resubmits[rank]}",
            workers=[self.workers[rank]], allow_other_workers=False, pure=False)

    def check(self):
        """None while the job can go on, else why it cannot."""
        for rank, future in enumerate(self.futures):
            if future.status == "error":
                return f"the task of rank {rank} failed: {future.exception(timeout=5)!r}"
            if future.status in ("cancelled", "lost"):
                return (f"the task of rank {rank} was {future.status} (Dask cancels a task "
                        "whose inputs were lost and cannot be recomputed, e.g. scattered data)")
        now = time.monotonic()
        if now - self._asked < 0.25:
            return None
        self._asked = now
        alive = set(self.client.run_on_scheduler(_scheduler_workers))
        for rank, worker in enumerate(self.workers):
            if worker in alive or self.futures[rank].status == "finished":
                continue
            gone = [f for f in self.train_parts[rank] + [f for e in self.evals_parts
                                                           for f in e[rank]]
                    if f.status in ("cancelled", "error")]  # "lost": Dask recomputes it
            if gone:
                return (f"worker {worker} of rank {rank} died and its data cannot be "
                        "recomputed (scattered, or its own inputs are gone)")
            free = sorted(alive - set(self.workers))
            if free:  # else wait: the nanny restarts the dead worker under a new address
                self.client.cancel([self.futures[rank]])
                self.workers[rank] = free[0]
                self.resubmits[rank] += 1
                self.futures[rank] = self._submit(rank)
        return None


@_deprecate_positional_args
def train(client, params, dtrain, num_boost_round=10, *, evals=None, obj=None, feval=None,
          early_stopping_rounds=None, xgb_model=None, verbose_eval=True, callbacks=None,
          custom_metric=None):
    """Train on the cluster; returns {"booster": Booster, "history": evaluation history}."""
    # pylint: disable=too-many-locals,import-outside-toplevel
    from .dask_data import _get_client
    from .training import _configure_custom_metric
    from .tracker import RabitTracker
    client = _get_client(client)
    evals = list(evals or [])
    metric = _configure_custom_metric(feval, custom_metric)
    workers, train_parts, evals_parts = _assign_ranks(dtrain, evals)
    n_workers = len(workers)
    tracker = RabitTracker(_tracker_host(client), n_workers,
                           timeout=_option("bootstrap_timeout"),
                           max_attempts=_option("max_attempts"),
                           recovery_timeout=_option("recovery_timeout"))
    tracker.start(n_workers)
    job_id = uuid.uuid4().hex
    options = {"obj": obj, "custom_metric": metric, "verbose_eval": verbose_eval,
               "xgb_model": xgb_model, "callbacks": callbacks,
               "early_stopping_rounds": early_stopping_rounds}
    job = _Job(client, job_id, workers, (
        _Secret(tracker.worker_envs()), params, dtrain.dmatrix_args(),
        [d.dmatrix_args() for d, _ in evals], [name for _, name in evals], num_boost_round,
        options), train_parts, evals_parts)
    deadline = time.monotonic() + _option("timeout")
    try:
        while True:
            time.sleep(0.05)  # statuses are pushed to the client: polling them is cheap
            reason = job.check()
            if reason is None and all(f.status == "finished" for f in job.futures):
                break
            if reason is None and not tracker.alive() and tracker.failure() is not None:
                reason = f"the tracker ended the job: {tracker.failure()}"
            if reason is None and time.monotonic() > deadline:
                reason = f"no result within {_option('timeout')} s"
            if reason is not None:
                tracker.join_quietly(1)  # the tracker's reason, when it has one, says more
                if tracker.failure() and "the tracker" not in reason:
                    reason += f"; the tracker: {tracker.failure()}"
                raise _failure(job.futures, job.workers, dtrain, train_parts, reason)
        results = client.gather(job.futures)
    except BaseException:
        tracker.stop()  # aborts the surviving ranks: nothing is left waiting
        client.cancel(job.futures)
        raise
    tracker.join(30)
    tracker.stop()
    client.set_metadata(["treering-dask", job_id], None)  # the attempt counters
    return next(r for r in results if r is not None)
