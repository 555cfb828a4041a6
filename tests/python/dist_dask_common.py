"""Shared by the treering.dask tests: a 2-process LocalCluster and data placed on workers."""
import logging
import os
import signal

import numpy as np
import pytest

dask = pytest.importorskip("dask", reason="python3-dask is not installed")
distributed = pytest.importorskip("distributed", reason="python3-distributed is not installed")
import dask.array as da  # noqa: E402  pylint: disable=wrong-import-position

from treering.callback import TrainingCallback  # noqa: E402  pylint: disable=wrong-import-position


def local_cluster(threads=1):
    """2 worker processes with nannies (a killed worker is restarted), 1 thread each."""
    return distributed.LocalCluster(n_workers=2, threads_per_worker=threads, processes=True,
                                    dashboard_address=":0", silence_logs=logging.ERROR)


def placed_array(client, blocks, workers):
    """A dask array whose block i is computed on workers[i] (recomputable: the block's task
    holds its data, so Dask can run it again after losing the worker)."""
    parts = []
    for block, worker in zip(blocks, workers):
        future = client.submit(np.array, block, workers=[worker], allow_other_workers=True,
                               pure=False)
        parts.append(da.from_delayed(future, shape=block.shape, dtype=block.dtype))
    return da.concatenate(parts, axis=0)


def scattered_array(client, blocks, workers):
    """Block i scattered to workers[i]: no lineage, lost for good with its worker."""
    parts = []
    for block, worker in zip(blocks, workers):
        [future] = client.scatter([block], workers=[worker])
        parts.append(da.from_delayed(future, shape=block.shape, dtype=block.dtype))
    return da.concatenate(parts, axis=0)


def binary_data(rows=2000, seed=0):
    rng = np.random.RandomState(seed)
    x = rng.randn(rows, 6).astype(np.float32)
    y = (x[:, 0] + x[:, 1] - x[:, 2] ** 2 + 0.5 * rng.randn(rows) > 0).astype(np.float32)
    return x, y


class KillAt(TrainingCallback):
    """A training callback that SIGKILLs the worker process of `rank` after round `epoch`,
    once (a marker file remembers it was done, so the rerun task goes on)."""

    def __init__(self, rank, epoch, marker):
        self.rank, self.epoch, self.marker = rank, epoch, str(marker)

    def after_iteration(self, model, epoch, evals_log):
        from treering import collective  # pylint: disable=import-outside-toplevel
        if epoch == self.epoch and collective.get_rank() == self.rank \
                and not os.path.exists(self.marker):
            with open(self.marker, "w") as f:
                f.write(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)
        return False
