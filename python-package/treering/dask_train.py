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
import time
import uuid

from .callback import EarlyStopping
from .dask_data import local_dmatrix
from .core import XGBoostError

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


def _failure(client, rank_futures, workers, dtrain, train_parts, reason):
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
    futures = []
    envs = _Secret(tracker.worker_envs())
    for rank, worker in enumerate(workers):
        futures.append(client.submit(
            _rank_task, job_id, rank, envs, params, train_parts[rank],
            dtrain.dmatrix_args(), [e[rank] for e in evals_parts],
            [d.dmatrix_args() for d, _ in evals], [name for _, name in evals],
            num_boost_round, options, key=f"treering-train-{job_id}-rank{rank}",
            workers=[worker], allow_other_workers=True, pure=False))
    deadline = time.monotonic() + _option("timeout")
    try:
        while True:
            time.sleep(0.05)  # statuses are pushed to the client: polling them is cheap
            failed = [f for f in futures if f.status in ("error", "cancelled", "lost")]
            if failed:
                rank = futures.index(failed[0])
                cause = failed[0].status
                if cause == "error":
                    cause = f"error: {failed[0].exception(timeout=5)!r}"
                else:  # its inputs are gone and cannot be recomputed
                    cause += " (an input of the task was lost and cannot be recomputed)"
                raise _failure(client, futures, workers, dtrain, train_parts,
                               f"the task of rank {rank} was {cause}")
            if all(f.status == "finished" for f in futures):
                break
            if not tracker.alive() and tracker.failure() is not None:
                raise _failure(client, futures, workers, dtrain, train_parts,
                               f"the tracker ended the job: {tracker.failure()}")
            if time.monotonic() > deadline:
                raise _failure(client, futures, workers, dtrain, train_parts,
                               f"no result within {_option('timeout')} s")
        results = client.gather(futures)
    except BaseException:
        tracker.stop()  # aborts the surviving ranks: nothing is left waiting
        client.cancel(futures)
        raise
    tracker.join(30)
    tracker.stop()
    return next(r for r in results if r is not None)
