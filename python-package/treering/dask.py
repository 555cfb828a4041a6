"""treering.dask: XGBoost 1.7's xgboost.dask over treering (DaskDMatrix, train, predict).

Training runs one rank per Dask worker that holds partitions, against a tracker in the
client process; a worker that dies mid-training is recovered (see dask_train.py).
Synchronous clients only: the ``asynchronous=True`` coroutine forms are not provided.
"""
import numpy as np

from .booster import Booster
from .dask_data import DaskDMatrix, DaskQuantileDMatrix, _get_client
from .dask_train import train

_ESTIMATORS = ("DaskXGBClassifier", "DaskXGBRegressor", "DaskXGBRanker", "DaskXGBRFClassifier",
               "DaskXGBRFRegressor")


def __getattr__(name):
    # The estimators import scikit-learn: only when asked for, so `import treering` stays fast.
    if name in _ESTIMATORS:
        from . import dask_sklearn  # pylint: disable=import-outside-toplevel
        return getattr(dask_sklearn, name)
    raise AttributeError(f"module 'treering.dask' has no attribute {name!r}")


def _booster_of(model):
    if isinstance(model, Booster):
        return model
    if isinstance(model, dict) and isinstance(model.get("booster"), Booster):
        return model["booster"]
    raise TypeError(f"model: expected a Booster or train()'s dict, got {type(model).__name__}")


def _predict_block(block, margin=None, *, booster, kwargs, inplace, missing):
    # pylint: disable=import-outside-toplevel
    from .core import DMatrix
    values = block.to_numpy() if hasattr(block, "iloc") else block
    if inplace:
        # margin: the block's rows of base_margin (rows x outputs), aligned by the caller.
        return booster.inplace_predict(values, missing=missing, base_margin=margin, **kwargs)
    return booster.predict(DMatrix(values, missing=missing), **kwargs)


def _output_shape(booster, n_features, kwargs, inplace, missing):
    """Prediction shape for 1 row (predict on a zero row), to build the dask meta."""
    probe = np.zeros((1, n_features), dtype=np.float32)
    return _predict_block(probe, booster=booster, kwargs=kwargs, inplace=inplace,
                          missing=missing).shape[1:]


def _margin_blocks(base_margin, data):
    """base_margin as a dask Array whose row chunks are data's (a Series, frame or numpy
    array is turned into one), so block i of both holds the same rows."""
    # pylint: disable=import-outside-toplevel
    import dask.array as da
    import dask.dataframe as dd
    if isinstance(base_margin, (dd.DataFrame, dd.Series)):
        base_margin = base_margin.to_dask_array(lengths=True)
    elif not isinstance(base_margin, da.Array):
        base_margin = da.from_array(np.asarray(base_margin))
    if base_margin.shape[0] != data.shape[0]:
        raise ValueError(f"base_margin: {base_margin.shape[0]} rows for {data.shape[0]} rows "
                         "of data")
    row_chunks = {0: data.chunks[0]}
    if base_margin.ndim == 2:
        row_chunks[1] = base_margin.shape[1]
    return base_margin.rechunk(row_chunks)


def _predict_collection(client, booster, data, kwargs, inplace, missing, base_margin=None):
    # pylint: disable=import-outside-toplevel
    import dask.array as da
    import dask.dataframe as dd
    client = _get_client(client)
    if isinstance(data, DaskDMatrix):
        raise TypeError("data: pass the dask collection (DaskDMatrix prediction goes through "
                        "predict())")
    tail = _output_shape(booster, data.shape[1], kwargs, inplace, missing)
    frame_index = None
    if isinstance(data, (dd.DataFrame, dd.Series)):
        if not tail and base_margin is None:  # 1-D output from a frame: a dask Series, as 1.7
            import pandas as pd
            return data.map_partitions(
                lambda part: pd.Series(_predict_block(part, booster=booster, kwargs=kwargs,
                                                      inplace=inplace, missing=missing),
                                       index=part.index, name="prediction"),
                meta=pd.Series(dtype=np.float32, name="prediction"))
        if not tail:
            frame_index = data.index
        data = data.to_dask_array(lengths=True)
    if not isinstance(data, da.Array):
        raise TypeError(f"data: expected a dask Array or DataFrame, got {type(data).__name__}")
    if data.numblocks[1] != 1:
        data = data.rechunk({1: data.shape[1]})
    new_axis = list(range(1, 1 + len(tail))) if tail else None
    chunks = (data.chunks[0],) + tuple((n,) for n in tail)
    if base_margin is None:
        return data.map_blocks(_predict_block, booster=booster, kwargs=kwargs,
                               inplace=inplace, missing=missing, drop_axis=1,
                               new_axis=new_axis, chunks=chunks, dtype=np.float32)
    margin = _margin_blocks(base_margin, data)
    if margin.ndim == 1:
        margin = margin[:, None]  # one block column, like data's, so block i pairs with i
    out = da.map_blocks(_predict_block, data, margin, booster=booster, kwargs=kwargs,
                        inplace=inplace, missing=missing, drop_axis=1, new_axis=new_axis,
                        chunks=chunks, dtype=np.float32)
    if frame_index is not None:  # a frame's 1-D output stays a dask Series, as XGBoost 1.7
        return dd.from_dask_array(out, columns="prediction", index=frame_index)
    return out


def predict(client, model, data, output_margin=False, missing=np.nan, pred_leaf=False,
            pred_contribs=False, approx_contribs=False, pred_interactions=False,
            validate_features=True, iteration_range=(0, 0), strict_shape=False):
    """Predict a dask Array / DataFrame (or a DaskDMatrix) on the cluster; lazily, as a
    dask Array (a dask Series for a DataFrame with one output per row)."""
    booster = _booster_of(model)
    kwargs = dict(output_margin=output_margin, pred_leaf=pred_leaf,
                  pred_contribs=pred_contribs, approx_contribs=approx_contribs,
                  pred_interactions=pred_interactions, validate_features=False,
                  iteration_range=iteration_range, strict_shape=strict_shape)
    del validate_features  # feature names are not carried into the blocks
    if isinstance(data, DaskDMatrix):
        return _predict_dmatrix(booster, data, kwargs)
    return _predict_collection(client, booster, data, kwargs, False, missing)


def _predict_part(part, booster, args, kwargs):
    from .dask_data import local_dmatrix  # pylint: disable=import-outside-toplevel
    return booster.predict(local_dmatrix([part], args), **kwargs)


def _predict_dmatrix(booster, dtrain, kwargs):
    import dask  # pylint: disable=import-outside-toplevel
    import dask.array as da  # pylint: disable=import-outside-toplevel
    client = dtrain.client
    rows = client.gather([client.submit(lambda p: len(p["data"]), f, pure=False)
                          for f in dtrain.parts])
    args = dtrain.dmatrix_args()
    n_features = client.submit(lambda p: p["data"].shape[1], dtrain.parts[0]).result()
    tail = _output_shape(booster, n_features, kwargs, False, args["missing"])
    blocks = [da.from_delayed(dask.delayed(_predict_part)(part, booster, args, kwargs),
                              shape=(n,) + tuple(tail), dtype=np.float32)
              for part, n in zip(dtrain.parts, rows)]
    return da.concatenate(blocks, axis=0)


def inplace_predict(client, model, data, iteration_range=(0, 0), predict_type="value",
                    missing=np.nan, validate_features=True, base_margin=None,
                    strict_shape=False):
    """Booster.inplace_predict on every block of a dask Array / DataFrame, lazily."""
    del validate_features
    kwargs = dict(iteration_range=iteration_range, predict_type=predict_type,
                  strict_shape=strict_shape)
    return _predict_collection(client, _booster_of(model), data, kwargs, True, missing,
                               base_margin)


__all__ = ["DaskDMatrix", "DaskQuantileDMatrix", "train", "predict", "inplace_predict",
           "DaskXGBClassifier", "DaskXGBRegressor", "DaskXGBRanker", "DaskXGBRFClassifier",
           "DaskXGBRFRegressor"]
