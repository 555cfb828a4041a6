"""DaskDMatrix: a dask collection's partitions, persisted, and which worker holds which.

As XGBoost 1.7's: each partition of (data, label, weight, ...) becomes one future of a dict,
computed on the cluster; training groups the futures by the worker that holds them, and each
worker becomes one rank. The futures keep their lineage, so a partition lost with a worker
is recomputed by Dask (from the graph) when the rank's task is rerun; data put there with
``client.scatter`` has no lineage and cannot come back.
"""
import numpy as np

from .core import XGBoostError

_META = ("label", "weight", "base_margin", "qid", "label_lower_bound", "label_upper_bound")


def _to_delayed(collection, name):
    """One delayed object per row partition of a dask array / dataframe / series."""
    import dask.array as da  # pylint: disable=import-outside-toplevel
    if isinstance(collection, da.Array):
        if collection.ndim == 2 and collection.numblocks[1] != 1:
            collection = collection.rechunk({1: collection.shape[1]})
        return list(collection.to_delayed().flatten())
    if hasattr(collection, "to_delayed") and hasattr(collection, "npartitions"):
        return list(collection.to_delayed())
    raise TypeError(f"{name}: expected a dask Array, DataFrame or Series, "
                    f"got {type(collection).__name__}")


def _make_part(**fields):
    return fields


class DaskDMatrix:
    """The training data of ``treering.dask.train``: dask collections with equal partitions."""

    def __init__(self, client, data, label=None, *, weight=None, base_margin=None,
                 missing=None, silent=False, feature_names=None, feature_types=None,
                 group=None, qid=None, label_lower_bound=None, label_upper_bound=None,
                 feature_weights=None, enable_categorical=False):
        import dask  # pylint: disable=import-outside-toplevel
        from distributed import wait  # pylint: disable=import-outside-toplevel
        if group is not None:
            raise NotImplementedError("group: use qid with dask (as XGBoost 1.7)")
        self.client = _get_client(client)
        self.missing = missing
        self.feature_names = feature_names
        self.feature_types = feature_types
        self.enable_categorical = enable_categorical
        self.feature_weights = None if feature_weights is None else np.asarray(
            feature_weights.compute() if hasattr(feature_weights, "compute") else feature_weights)
        if len(data.shape) != 2:
            raise ValueError(f"data: expected 2 dimensions, got shape {data.shape}")
        if feature_names is None and hasattr(data, "columns"):
            self.feature_names = [str(c) for c in data.columns]
        columns = {"data": _to_delayed(data, "data")}
        given = dict(label=label, weight=weight, base_margin=base_margin, qid=qid,
                     label_lower_bound=label_lower_bound, label_upper_bound=label_upper_bound)
        for name, value in given.items():
            if value is not None:
                columns[name] = _to_delayed(value, name)
                if len(columns[name]) != len(columns["data"]):
                    raise ValueError(f"{name}: {len(columns[name])} partitions, but data has "
                                     f"{len(columns['data'])}")
        n_parts = len(columns["data"])
        parts = [dask.delayed(_make_part)(**{k: v[i] for k, v in columns.items()})
                 for i in range(n_parts)]
        self._parts = self.client.compute(parts)
        wait(self._parts)
        self._fields = list(columns)
        self.refresh_workers()

    @property
    def parts(self):
        """The futures of the partitions, in partition order."""
        return list(self._parts)

    def refresh_workers(self):
        """{worker address: [partition index, ...]} from the scheduler's who_has."""
        who_has = self.client.who_has(self._parts)
        self.worker_map = {}
        unheld = []
        for index, future in enumerate(self._parts):
            if future.status in ("cancelled", "error"):
                raise XGBoostError(f"partition {index} of the DaskDMatrix is "
                                   f"{future.status}: it was lost and cannot be recomputed")
            holders = sorted(who_has.get(future.key, ()))
            if holders:
                self.worker_map.setdefault(holders[0], []).append(index)
            else:
                unheld.append(index)
        if unheld and not self.worker_map:
            raise XGBoostError("no partition of the DaskDMatrix is held by a worker")
        # Lost with a worker: Dask recomputes them for the rank that gets them; idle workers
        # (a restarted one) first, so the job keeps its number of ranks.
        idle = sorted(set(self.client.scheduler_info()["workers"]) - set(self.worker_map))
        for index in unheld:
            if idle:
                self.worker_map[idle.pop(0)] = [index]
                continue
            fewest = min(self.worker_map, key=lambda w: (len(self.worker_map[w]), w))
            self.worker_map[fewest].append(index)
        for indices in self.worker_map.values():
            indices.sort()
        return self.worker_map

    def dmatrix_args(self):
        """What a worker needs besides the partitions to build its local DMatrix."""
        return {"missing": self.missing, "feature_names": self.feature_names,
                "feature_types": self.feature_types,
                "enable_categorical": self.enable_categorical,
                "feature_weights": self.feature_weights}


class DaskQuantileDMatrix(DaskDMatrix):
    """Accepted for XGBoost 1.7's API: treering builds the same histogram cuts from a
    DaskDMatrix (``max_bin`` and ``ref`` are accepted; no separate quantile storage yet)."""

    def __init__(self, client, data, label=None, *, max_bin=None, ref=None, **kwargs):
        super().__init__(client, data, label, **kwargs)
        self.max_bin = max_bin
        self.ref = ref


def _get_client(client):
    from distributed import get_client  # pylint: disable=import-outside-toplevel
    return client if client is not None else get_client()


def concat(values):
    """Concatenate partitions (numpy arrays, pandas frames or series) of one field."""
    first = values[0]
    if hasattr(first, "iloc"):
        import pandas as pd  # pylint: disable=import-outside-toplevel
        return pd.concat(values, axis=0)
    return np.concatenate(values, axis=0)


def local_dmatrix(parts, args):
    """The rank's DMatrix from its partitions (in partition order); None without any."""
    from .core import DMatrix  # pylint: disable=import-outside-toplevel
    if not parts:
        return None
    fields = {name: concat([p[name] for p in parts]) for name in parts[0]}
    data = fields.pop("data")
    if hasattr(data, "iloc"):  # a pandas frame: its values (the names came from the columns)
        data = data.to_numpy()
    kwargs = {k: np.asarray(v) for k, v in fields.items()}
    dm = DMatrix(data, missing=args["missing"], feature_names=args["feature_names"],
                 feature_types=args["feature_types"],
                 enable_categorical=args["enable_categorical"], **kwargs)
    if args["feature_weights"] is not None:
        dm.set_info(feature_weights=args["feature_weights"])
    return dm


__all__ = ["DaskDMatrix", "DaskQuantileDMatrix"]
