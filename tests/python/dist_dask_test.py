"""treering.dask against python3-xgboost 1.7.4's xgboost.dask, the CLI and single-process
training, on a LocalCluster of 2 worker processes."""
import os
import random
import subprocess

import numpy as np
import pytest

from dist_dask_common import binary_data, local_cluster, placed_array
import dist_worker

import treering as xgb
from treering import dask as tdask

dd = pytest.importorskip("dask.dataframe", reason="dask.dataframe needs pandas")
da = pytest.importorskip("dask.array", reason="dask.array (python3-dask)")
xgboost = pytest.importorskip("xgboost", reason="python3-xgboost 1.7.4 (the peer)")
roc_auc_score = pytest.importorskip("sklearn.metrics").roc_auc_score
import distributed  # noqa: E402  pylint: disable=wrong-import-position

PARAMS = {"objective": "binary:logistic", "eval_metric": "logloss", "tree_method": "hist",
          "max_depth": 4, "eta": 0.3, "nthread": 1}


@pytest.fixture(scope="module")
def client():
    with local_cluster() as cluster, distributed.Client(cluster) as c:
        yield c


@pytest.fixture(scope="module")
def workers(client):
    return sorted(client.scheduler_info()["workers"])


def without_training_attrs(booster):
    booster.set_attr(best_iteration=None, best_ntree_limit=None)
    return booster


def test_two_workers_equal_cli_single_process_and_xgboost(client, workers, tmp_path):
    build = os.environ.get("TREERING_BUILD_DIR", "")
    submit, cli = (os.path.join(build, "bin", p) for p in ("treering-submit", "treering"))
    if not (os.path.exists(submit) and os.path.exists(cli)):
        pytest.skip(f"treering and treering-submit are not built in {build!r}")
    rng = random.Random(3)
    files = {name: tmp_path / f"{name}.libsvm" for name in ("train", "test")}
    from dist_collective_test import write_libsvm  # pylint: disable=import-outside-toplevel
    write_libsvm(files["train"], 2000, rng)
    write_libsvm(files["test"], 600, rng)
    # The dask partitions are the CLI's shards, partition r on worker r.
    shards = {name: [dist_worker.parse_libsvm(dist_worker.shard_rows(path, r, 2), 6)
                     for r in range(2)] for name, path in files.items()}
    dx = {n: placed_array(client, [s[0] for s in shards[n]], workers) for n in shards}
    dy = {n: placed_array(client, [s[1] for s in shards[n]], workers) for n in shards}
    dtrain = tdask.DaskDMatrix(client, dx["train"], dy["train"])
    dtest = tdask.DaskDMatrix(client, dx["test"], dy["test"])
    assert sorted(dtrain.worker_map.values()) == [[0], [1]]
    rounds = 5
    params = dict(PARAMS, eval_metric=["auc", "logloss"])
    out = tdask.train(client, params, dtrain, rounds, evals=[(dtest, "test")],
                      verbose_eval=False)
    assert set(out) == {"booster", "history"}
    model = tmp_path / "cli.json"
    keys = [f"{k}={v}" for k, v in PARAMS.items() if k != "eval_metric"]
    proc = subprocess.run(
        [submit, "--cluster", "local", "--num-workers", "2", "--bind-to", "none", "--", cli,
         "/dev/null", f"data={files['train']}", f"eval[test]={files['test']}",
         f"num_round={rounds}", f"model_out={model}", "eval_metric=auc",
         "eval_metric=logloss"] + keys, capture_output=True, text=True, timeout=60,
        cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    booster = without_training_attrs(out["booster"])
    assert bytes(booster.save_raw("json")) == model.read_bytes()
    last = [l for l in proc.stdout.splitlines() if l.startswith(f"[{rounds - 1}]\t")][-1]
    cli_auc = float(last.split("test-auc:")[1].split()[0])
    assert out["history"]["test"]["auc"][-1] == pytest.approx(cli_auc, abs=1e-12)
    # treering alone on the concatenated data: the same model (each rank's sketch holds every
    # value of its part, so the merged cuts are the single-process ones).
    x = np.concatenate([s[0] for s in shards["train"]])
    y = np.concatenate([s[1] for s in shards["train"]])
    single = xgb.train(params, xgb.DMatrix(x, y), rounds, verbose_eval=False)
    assert bytes(without_training_attrs(single).save_raw("json")) == model.read_bytes()
    # xgboost.dask 1.7.4 on the same partitions: the same predictions and test AUC.
    xd_train = xgboost.dask.DaskDMatrix(client, dx["train"], dy["train"])
    theirs = xgboost.dask.train(client, params, xd_train, rounds)["booster"]
    tx = np.concatenate([s[0] for s in shards["test"]])
    ty = np.concatenate([s[1] for s in shards["test"]])
    ours_p = booster.predict(xgb.DMatrix(tx))
    theirs_p = theirs.predict(xgboost.DMatrix(tx))
    np.testing.assert_allclose(ours_p, theirs_p, atol=1e-6)
    assert abs(roc_auc_score(ty, ours_p) - roc_auc_score(ty, theirs_p)) < 1e-4


def test_predict_and_inplace_predict(client, workers):
    x, y = binary_data(800)
    dx = placed_array(client, [x[:500], x[500:]], workers)
    dy = placed_array(client, [y[:500], y[500:]], workers)
    out = tdask.train(client, PARAMS, tdask.DaskDMatrix(client, dx, dy), 4, verbose_eval=False)
    theirs = xgboost.dask.train(client, PARAMS, xgboost.dask.DaskDMatrix(client, dx, dy), 4)
    local = out["booster"].predict(xgb.DMatrix(x))
    np.testing.assert_allclose(local, theirs["booster"].predict(xgboost.DMatrix(x)), atol=1e-6)
    frame = dd.from_dask_array(dx, columns=[f"f{i}" for i in range(6)])
    cases = [
        (tdask.predict(client, out, dx), xgboost.dask.predict(client, theirs, dx)),
        (tdask.predict(client, out["booster"], tdask.DaskDMatrix(client, dx)),
         xgboost.dask.predict(client, theirs, xgboost.dask.DaskDMatrix(client, dx))),
        (tdask.inplace_predict(client, out, dx), xgboost.dask.inplace_predict(client, theirs, dx)),
        (tdask.predict(client, out, frame), xgboost.dask.predict(client, theirs, frame)),
    ]
    for ours, peer in cases:
        assert type(ours) is type(peer)  # dask Array, or a dask Series for a frame
        np.testing.assert_allclose(np.asarray(ours.compute()), local, rtol=0, atol=0)
        np.testing.assert_allclose(np.asarray(ours.compute()), np.asarray(peer.compute()),
                                   atol=1e-6)
    margin = tdask.predict(client, out, dx, output_margin=True).compute()
    np.testing.assert_allclose(margin, out["booster"].predict(xgb.DMatrix(x), output_margin=True))
    leaves = tdask.predict(client, out, dx, pred_leaf=True)
    assert leaves.shape == (800, 4)
    np.testing.assert_array_equal(leaves.compute(),
                                  out["booster"].predict(xgb.DMatrix(x), pred_leaf=True))
    with pytest.raises(TypeError, match="model"):
        tdask.predict(client, "not a model", dx)
    # base_margin as an Array (chunked unlike the data: rechunked to its rows) and as a
    # Series next to a frame, against the local inplace predictions. (xgboost.dask 1.7.4
    # fails here: each block gets the whole margin, "margin.Shape(0) == n_samples (800 vs.
    # 500)", so it is no peer for this.)
    margin = np.linspace(-1.0, 1.0, 800).astype(np.float32)
    dmargin = da.from_array(margin, chunks=300)
    expected = out["booster"].inplace_predict(x, base_margin=margin)
    for data, base in ((dx, dmargin), (frame, dd.from_dask_array(dmargin))):
        ours = tdask.inplace_predict(client, out, data, base_margin=base)
        assert type(ours) is type(tdask.inplace_predict(client, out, data))
        np.testing.assert_allclose(np.asarray(ours.compute()), expected, rtol=0, atol=0)
    assert not np.allclose(expected, local)  # the margins changed the predictions
    with pytest.raises(ValueError, match="base_margin: 799 rows for 800"):
        tdask.inplace_predict(client, out, dx, base_margin=margin[:799])


def test_classifier_regressor_ranker_match_xgboost(client, workers):
    x, y = binary_data(900, seed=1)
    dx = placed_array(client, [x[:450], x[450:]], workers)
    dy = placed_array(client, [y[:450], y[450:]], workers)
    ex, ey = binary_data(300, seed=2)
    ey = np.random.RandomState(5).permutation(ey)  # noise: the eval loss soon rises
    dex, dey = placed_array(client, [ex[:150], ex[150:]], workers), \
        placed_array(client, [ey[:150], ey[150:]], workers)
    kw = dict(n_estimators=12, max_depth=3, learning_rate=0.5, tree_method="hist", n_jobs=1)
    fit = dict(eval_set=[(dex, dey)], eval_metric="logloss", early_stopping_rounds=3)
    ours = tdask.DaskXGBClassifier(**kw)
    ours.client = client
    ours.fit(dx, dy, **fit)
    peer = xgboost.dask.DaskXGBClassifier(**kw)
    peer.client = client
    peer.fit(dx, dy, **fit)
    assert ours.best_iteration == peer.best_iteration < 11  # early stopping stopped it
    assert ours.evals_result()["validation_0"]["logloss"] == pytest.approx(
        peer.evals_result()["validation_0"]["logloss"], abs=1e-6)
    np.testing.assert_allclose(ours.predict_proba(dex).compute(),
                               peer.predict_proba(dex).compute(), atol=1e-6)
    np.testing.assert_array_equal(ours.predict(dex).compute(), peer.predict(dex).compute())
    assert ours.get_params()["max_depth"] == 3 and ours.n_classes_ == 2
    # 3 classes: multi:softprob.
    y3 = np.digitize(x[:, 0], [-0.5, 0.5]).astype(np.float32)
    dy3 = placed_array(client, [y3[:450], y3[450:]], workers)
    ours3, peer3 = tdask.DaskXGBClassifier(**kw), xgboost.dask.DaskXGBClassifier(**kw)
    for model in (ours3, peer3):
        model.client = client
        model.fit(dx, dy3)
    np.testing.assert_allclose(ours3.predict_proba(dx).compute(),
                               peer3.predict_proba(dx).compute(), atol=1e-6)
    # Regression.
    reg_y = x[:, 0] * 2 - x[:, 1]
    dry = placed_array(client, [reg_y[:450], reg_y[450:]], workers)
    ours_r, peer_r = tdask.DaskXGBRegressor(**kw), xgboost.dask.DaskXGBRegressor(**kw)
    for model in (ours_r, peer_r):
        model.client = client
        model.fit(dx, dry)
    np.testing.assert_allclose(ours_r.predict(dx).compute(), peer_r.predict(dx).compute(),
                               atol=1e-5)
    # Ranking: query groups of 30 rows, contiguous, each within one partition.
    qid = (np.arange(900) // 30).astype(np.int64)
    rel = np.digitize(x[:, 0] - 0.7 * x[:, 1], [-0.5, 0.5]).astype(np.float32)
    dq = placed_array(client, [qid[:450], qid[450:]], workers)
    drel = placed_array(client, [rel[:450], rel[450:]], workers)
    # xgboost.dask 1.7.4's DaskXGBRanker drops its constructor parameters (it trains 100
    # depth-6 trees whatever it is given), so the peer here is xgboost.dask.train.
    ours_k = tdask.DaskXGBRanker(**kw)
    ours_k.client = client
    ours_k.fit(dx, drel, qid=dq)
    peer_k = xgboost.dask.train(
        client, {"objective": "rank:pairwise", "max_depth": 3, "eta": 0.5,
                 "tree_method": "hist", "nthread": 1},
        xgboost.dask.DaskDMatrix(client, dx, drel, qid=dq), kw["n_estimators"])
    np.testing.assert_allclose(ours_k.predict(dx).compute(),
                               xgboost.dask.predict(client, peer_k, dx).compute(), atol=1e-5)
    with pytest.raises(NotImplementedError, match="qid"):
        ours_k.fit(dx, drel, group=np.full(30, 30))
