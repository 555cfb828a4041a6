#!/usr/bin/python3
"""One measurement of the Python package, through treering or through python3-xgboost 1.7.4.

The bench/python/*.sh scripts run this once per side and per repeat, alternating the sides, so
each measurement is a fresh process (no warm caches of the other library) and the shell takes
medians. It prints "key value" lines.

usage: pybench.py SIDE TASK ARGS...      SIDE: treering | xgboost
  dmatrix NPY ORDER REPEATS          DMatrix from the float32 array in C or F order (seconds)
  inplace MODEL NPY REPEATS          inplace_predict on every row (seconds); checksum
  latency MODEL NPY CALLS            one-row inplace_predict: p50 / p99 microseconds
  train TRAIN TEST ROUNDS MODEL_OUT  xgb.train with higgs1m.conf's params, whole process
  fit_fashion SRCDIR ROUNDS          XGBClassifier.fit on Fashion-MNIST (seconds), accuracy
  dask NPY_TRAIN NPY_TEST ROUNDS     the dask module, 2 local workers: train (seconds), AUC
  npy LIBSVM NPY                     (xgboost side) a LibSVM file as a dense float32 .npy, and
                                     its labels as NPY with .label.npy
"""
import gzip
import importlib
import os
import statistics
import sys
import time

import numpy as np

# higgs1m.conf (../shared/bench/xgb), the CLI bench's config, as a params dict.
HIGGS_PARAMS = {"booster": "gbtree", "objective": "binary:logistic", "tree_method": "hist",
                "max_bin": 256, "max_depth": 8, "eta": 0.1, "nthread": 2,
                "eval_metric": ["auc", "logloss"]}


def load_side(side):
    if side == "treering":
        # The checkout's package, unless the caller points PYTHONPATH elsewhere.
        here = os.path.dirname(os.path.abspath(__file__))
        sys.path.insert(0, os.path.join(here, "..", "..", "python-package"))
        return importlib.import_module("treering")
    if side == "xgboost":
        return importlib.import_module("xgboost")
    raise SystemExit(f"unknown side {side}")


def emit(key, value):
    print(f"{key} {value}", flush=True)


def task_dmatrix(xgb, npy, order, repeats):
    x = np.load(npy)
    x = np.asfortranarray(x) if order == "F" else np.ascontiguousarray(x)
    times = []
    for _ in range(int(repeats)):
        start = time.perf_counter()
        d = xgb.DMatrix(x, nthread=2)
        times.append(time.perf_counter() - start)
        rows = d.num_row()
        del d
    emit("dmatrix_s", "%.4f" % statistics.median(times))
    emit("rows", rows)


def task_inplace(xgb, model, npy, repeats):
    bst = xgb.Booster(model_file=model)
    bst.set_param({"nthread": 2})
    x = np.load(npy)
    times = []
    for _ in range(int(repeats)):
        start = time.perf_counter()
        pred = bst.inplace_predict(x)
        times.append(time.perf_counter() - start)
    emit("inplace_s", "%.4f" % statistics.median(times))
    emit("checksum", "%.4f" % float(np.sum(pred, dtype=np.float64)))


def task_latency(xgb, model, npy, calls):
    bst = xgb.Booster(model_file=model)
    bst.set_param({"nthread": 1})
    x = np.load(npy, mmap_mode="r")
    calls = int(calls)
    rows = [np.array(x[i:i + 1]) for i in range(min(calls, x.shape[0]))]
    for row in rows[:200]:  # warm-up
        bst.inplace_predict(row)
    lat = np.empty(calls)
    total = 0.0
    for i in range(calls):
        row = rows[i % len(rows)]
        start = time.perf_counter()
        out = bst.inplace_predict(row)
        lat[i] = time.perf_counter() - start
        total += float(out[0])
    emit("latency_p50_us", "%.2f" % (np.percentile(lat, 50) * 1e6))
    emit("latency_p99_us", "%.2f" % (np.percentile(lat, 99) * 1e6))
    emit("checksum", "%.4f" % total)


def task_train(xgb, train, test, rounds, model_out):
    # The whole job as a user writes it: load both files, train with evaluation, save.
    dtrain = xgb.DMatrix(train + "?format=libsvm", nthread=2)
    dtest = xgb.DMatrix(test + "?format=libsvm", nthread=2)
    history = {}
    bst = xgb.train(HIGGS_PARAMS, dtrain, int(rounds), evals=[(dtest, "test")],
                    evals_result=history, verbose_eval=False)
    bst.save_model(model_out)
    emit("test_auc", "%.6f" % history["test"]["auc"][-1])


def read_idx(path):
    with gzip.open(path, "rb") as f:
        raw = f.read()
    ndim = int.from_bytes(raw[0:4], "big") & 0xFF
    dims = [int.from_bytes(raw[4 + 4 * i:8 + 4 * i], "big") for i in range(ndim)]
    return np.frombuffer(raw, dtype=np.uint8, offset=4 + 4 * ndim).reshape(dims)


def task_fit_fashion(xgb, src, rounds):
    try:
        sklearn_mod = importlib.import_module(xgb.__name__ + ".sklearn")
        classifier = sklearn_mod.XGBClassifier
    except (ImportError, AttributeError) as err:
        emit("skip", f"{xgb.__name__}.sklearn not available ({err})")
        return
    x = read_idx(os.path.join(src, "train-images-idx3-ubyte.gz")).reshape(60000, -1)
    y = read_idx(os.path.join(src, "train-labels-idx1-ubyte.gz")).astype(np.int64)
    xt = read_idx(os.path.join(src, "t10k-images-idx3-ubyte.gz")).reshape(10000, -1)
    yt = read_idx(os.path.join(src, "t10k-labels-idx1-ubyte.gz")).astype(np.int64)
    x, xt = x.astype(np.float32), xt.astype(np.float32)
    # fashion.conf's params (depth 6, eta 0.3, hist, 2 threads); n_estimators from ROUNDS.
    clf = classifier(n_estimators=int(rounds), max_depth=6, learning_rate=0.3,
                     tree_method="hist", n_jobs=2)
    start = time.perf_counter()
    clf.fit(x, y)
    emit("fit_s", "%.3f" % (time.perf_counter() - start))
    emit("test_accuracy", "%.4f" % float(np.mean(clf.predict(xt) == yt)))


def task_dask(xgb, npy_train, npy_test, rounds):
    try:
        dxgb = importlib.import_module(xgb.__name__ + ".dask")
    except ImportError as err:
        emit("skip", f"{xgb.__name__}.dask not available ({err})")
        return
    import dask.array as da
    from distributed import Client, LocalCluster
    from sklearn.metrics import roc_auc_score
    x = np.load(npy_train)
    y = np.load(npy_train[:-4] + ".label.npy")
    xt = np.load(npy_test)
    yt = np.load(npy_test[:-4] + ".label.npy")
    params = dict(HIGGS_PARAMS, nthread=1)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        chunk = (x.shape[0] + 3) // 4  # 4 partitions, 2 per worker
        dx = da.from_array(x, chunks=(chunk, x.shape[1])).persist()
        dy = da.from_array(y, chunks=chunk).persist()
        start = time.perf_counter()
        dtrain = dxgb.DaskDMatrix(client, dx, dy)
        out = dxgb.train(client, params, dtrain, num_boost_round=int(rounds))
        emit("train_s", "%.3f" % (time.perf_counter() - start))
        pred = out["booster"].inplace_predict(xt)
    emit("test_auc", "%.6f" % roc_auc_score(yt, pred))


def task_npy(xgb, libsvm, npy):
    d = xgb.DMatrix(libsvm + "?format=libsvm", nthread=2)
    x = d.get_data().toarray().astype(np.float32)
    np.save(npy, x)
    np.save(npy[:-4] + ".label.npy", d.get_label())
    emit("rows", x.shape[0])


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    xgb = load_side(sys.argv[1])
    tasks = {"dmatrix": task_dmatrix, "inplace": task_inplace, "latency": task_latency,
             "train": task_train, "fit_fashion": task_fit_fashion, "dask": task_dask,
             "npy": task_npy}
    tasks[sys.argv[2]](xgb, *sys.argv[3:])


if __name__ == "__main__":
    main()
