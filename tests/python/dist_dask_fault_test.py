"""treering.dask.train when a Dask worker process is SIGKILLed mid-training (from a callback
at round 3, on a LocalCluster whose nannies restart it).

Recomputable partitions: Dask reruns the rank's task on the restarted worker, which rejoins
with its task id and resumes from the survivors' checkpoint: the call returns the model and
history of the uninterrupted run, byte for byte (rank 1 killed, and rank 0, whose task
returns the result). Scattered partitions: the call fails quickly, naming the worker and
the partitions lost. (XGBoost 1.7's xgboost.dask hangs here: dmlc/xgboost#9419.)"""
import time

import numpy as np

import pytest

from dist_dask_common import KillAt, binary_data, local_cluster, placed_array, scattered_array

import treering as xgb
from treering import dask as tdask
import dask  # noqa: E402  pylint: disable=wrong-import-order
import distributed  # noqa: E402  pylint: disable=wrong-import-order

PARAMS = {"objective": "binary:logistic", "eval_metric": ["logloss", "auc"],
          "tree_method": "hist", "max_depth": 4, "nthread": 1}
ROUNDS = 8


@pytest.fixture(scope="module")
def client():
    with dask.config.set({"treering.recovery_timeout": 20, "treering.timeout": 60}), \
            local_cluster() as cluster, distributed.Client(cluster) as c:
        yield c


def workers_of(client):
    return sorted(client.scheduler_info()["workers"])


def wait_for_workers(client, n=2, timeout=20):
    deadline = time.monotonic() + timeout
    while len(workers_of(client)) < n and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(workers_of(client)) == n


@pytest.mark.parametrize("victim", [1, 0])
def test_killed_worker_rejoins_and_model_is_identical(client, tmp_path, victim):
    wait_for_workers(client)
    x, y = binary_data(1200, seed=victim)
    before = workers_of(client)
    dx = placed_array(client, [x[:600], x[600:]], before)
    dy = placed_array(client, [y[:600], y[600:]], before)
    dtrain = tdask.DaskDMatrix(client, dx, dy)
    evals = [(dtrain, "train")]
    options = {}
    if victim == 0:
        # A separate eval set with noisy labels and early stopping, which must resume with
        # its counters (it stops at round 5 or so, after the kill at round 3).
        ex, ey = binary_data(400, seed=9)
        ey = np.random.RandomState(1).permutation(ey)
        dex = placed_array(client, [ex[:200], ex[200:]], before)
        dey = placed_array(client, [ey[:200], ey[200:]], before)
        evals.append((tdask.DaskDMatrix(client, dex, dey), "noisy"))
        options["early_stopping_rounds"] = 4
    reference = tdask.train(client, PARAMS, dtrain, ROUNDS, evals=evals, verbose_eval=False,
                            **options)
    if victim == 0:
        assert 3 < reference["booster"].num_boosted_rounds() < ROUNDS
    marker = tmp_path / "killed"
    start = time.monotonic()
    out = tdask.train(client, PARAMS, dtrain, ROUNDS, evals=evals, verbose_eval=False,
                      callbacks=[KillAt(victim, 3, marker)], **options)
    elapsed = time.monotonic() - start
    assert marker.exists(), "the callback did not kill the worker"
    wait_for_workers(client)
    assert workers_of(client) != before, "no worker was restarted"
    assert bytes(out["booster"].save_raw("json")) == bytes(reference["booster"].save_raw("json"))
    assert out["history"] == reference["history"]
    assert len(out["history"]["train"]["auc"]) == out["booster"].num_boosted_rounds()
    assert out["booster"].attr("best_iteration") == reference["booster"].attr("best_iteration")
    assert out["booster"].attr("treering_checkpoint_state") is None
    assert elapsed < 30
    if victim == 1:  # the same DaskDMatrix again: its lost partition is recomputed
        again = tdask.train(client, PARAMS, dtrain, ROUNDS, evals=evals, verbose_eval=False)
        assert bytes(again["booster"].save_raw("json")) == \
            bytes(reference["booster"].save_raw("json"))


def test_lost_scattered_partitions_fail_naming_them(client, tmp_path):
    wait_for_workers(client)
    x, y = binary_data(1200, seed=5)
    workers = workers_of(client)
    dx = scattered_array(client, [x[:600], x[600:]], workers)
    dy = scattered_array(client, [y[:600], y[600:]], workers)
    dtrain = tdask.DaskDMatrix(client, dx, dy)
    assert sorted(dtrain.worker_map.values()) == [[0], [1]]
    victim = next(w for w, parts in dtrain.worker_map.items() if parts == [1])
    start = time.monotonic()
    with pytest.raises(xgb.XGBoostError) as info:
        tdask.train(client, PARAMS, dtrain, ROUNDS, verbose_eval=False,
                    callbacks=[KillAt(1, 2, tmp_path / "killed")])
    elapsed = time.monotonic() - start
    message = str(info.value)
    assert victim in message and "partitions [1] lost" in message, message
    assert elapsed < 25, f"the failure took {elapsed:.1f} s"
    wait_for_workers(client)


def test_two_threads_per_worker_rerun_goes_to_the_restarted_worker(tmp_path):
    """With a free thread on the survivor, Dask could run the rerun task beside the surviving
    rank (one communicator per process); train() pins it to the restarted worker instead."""
    with dask.config.set({"treering.recovery_timeout": 20, "treering.timeout": 60}), \
            local_cluster(threads=2) as cluster, distributed.Client(cluster) as client2:
        x, y = binary_data(1000, seed=3)
        workers = workers_of(client2)
        dx = placed_array(client2, [x[:500], x[500:]], workers)
        dy = placed_array(client2, [y[:500], y[500:]], workers)
        dtrain = tdask.DaskDMatrix(client2, dx, dy)
        params = dict(PARAMS, nthread=1)
        reference = tdask.train(client2, params, dtrain, ROUNDS, verbose_eval=False)
        out = tdask.train(client2, params, dtrain, ROUNDS, verbose_eval=False,
                          callbacks=[KillAt(1, 3, tmp_path / "killed")])
        assert (tmp_path / "killed").exists()
        assert bytes(out["booster"].save_raw("json")) == \
            bytes(reference["booster"].save_raw("json"))
