"""booster=gblinear against python3-xgboost 1.7.4: weights and predictions to 1e-5 for every
deterministic updater/selector and the four objectives (nthread=1: XGBoost's shotgun is Hogwild
over threads, treering's runs one thread's order whatever the thread count); model files in the
three formats crossing both ways; dumps, importance, contributions, config, refusals; two
workers under a tracker against one process; bad keys."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

xgb = pytest.importorskip("xgboost", reason="python3-xgboost 1.7.4 (the peer) is needed")
if not xgb.__version__.startswith("1.7"):
    pytest.skip(f"the peer is xgboost {xgb.__version__}, not 1.7", allow_module_level=True)

import treering as tr  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TOL = 1e-5


def make_data(rows=300, cols=6, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(rows, cols))
    x[rng.random(size=x.shape) < 0.15] = np.nan
    xs = np.nan_to_num(x)
    reg = 2 * xs[:, 0] - xs[:, 1] + 0.1 * rng.normal(size=rows)
    labels = {
        "reg:squarederror": reg,
        "binary:logistic": (reg > 0).astype(float),
        "multi:softprob": (xs[:, 2] > 0).astype(int) + (xs[:, 3] > 0.5),
        "multi:softmax": (xs[:, 2] > 0).astype(int) + (xs[:, 3] > 0.5),
        "count:poisson": rng.poisson(np.exp(np.clip(0.5 * xs[:, 0], -3, 3))).astype(float),
    }
    return x, labels


def weights(booster):
    doc = json.loads(booster.save_raw("json"))
    return np.array(doc["learner"]["gradient_booster"]["model"]["weights"])


def both(params, x, y, rounds=5):
    extra = {"num_class": 3} if params.get("objective", "").startswith("multi:") else {}
    p = dict(booster="gblinear", nthread=1, **params, **extra)
    return (tr.train(p, tr.DMatrix(x, y), rounds), xgb.train(p, xgb.DMatrix(x, y), rounds))


CASES = [("shotgun", "cyclic"), ("shotgun", "shuffle"), ("coord_descent", "cyclic"),
         ("coord_descent", "greedy"), ("coord_descent", "thrifty"),
         ("coord_descent", "shuffle"), ("coord_descent", "random")]
OBJECTIVES = ["reg:squarederror", "binary:logistic", "multi:softprob", "multi:softmax",
              "count:poisson"]


@pytest.mark.parametrize("updater,selector", CASES)
def test_weights_and_predictions_equal_xgboost(updater, selector):
    x, labels = make_data()
    for objective in OBJECTIVES:
        params = dict(objective=objective, updater=updater, feature_selector=selector,
                      reg_lambda=0.1, reg_alpha=0.01, eta=0.7)
        if selector in ("greedy", "thrifty"):
            params["top_k"] = 4
        ours, theirs = both(params, x, labels[objective])
        np.testing.assert_allclose(weights(ours), weights(theirs), atol=TOL, err_msg=objective)
        for margin in (False, True):
            np.testing.assert_allclose(ours.predict(tr.DMatrix(x), output_margin=margin),
                                       theirs.predict(xgb.DMatrix(x), output_margin=margin),
                                       atol=TOL, err_msg=objective)


def test_tolerance_and_weights_as_xgboost():
    x, labels = make_data(seed=1)
    w = np.linspace(0.5, 2, len(x))
    p = dict(booster="gblinear", nthread=1, tolerance=0.05, updater="coord_descent")
    ours = tr.train(p, tr.DMatrix(x, labels["reg:squarederror"], weight=w), 30)
    theirs = xgb.train(p, xgb.DMatrix(x, labels["reg:squarederror"], weight=w), 30)
    np.testing.assert_allclose(weights(ours), weights(theirs), atol=TOL)
    assert ours.num_boosted_rounds() == theirs.num_boosted_rounds() == 30


@pytest.mark.parametrize("ext", ["json", "ubj", "model"])
def test_model_files_cross_both_ways(tmp_path, ext):
    x, labels = make_data(seed=2)
    for objective in ("binary:logistic", "multi:softprob"):
        ours, theirs = both(dict(objective=objective), x, labels[objective], rounds=3)
        ours.save_model(str(tmp_path / f"ours.{ext}"))
        theirs.save_model(str(tmp_path / f"theirs.{ext}"))
        if objective == "binary:logistic":  # one output: the very bytes XGBoost writes
            assert (tmp_path / f"ours.{ext}").read_bytes() == \
                (tmp_path / f"theirs.{ext}").read_bytes()
        loaded_by_xgb = xgb.Booster(model_file=str(tmp_path / f"ours.{ext}"))
        loaded_by_tr = tr.Booster(model_file=str(tmp_path / f"theirs.{ext}"))
        np.testing.assert_allclose(loaded_by_xgb.predict(xgb.DMatrix(x)),
                                   ours.predict(tr.DMatrix(x)), atol=1e-6)
        np.testing.assert_allclose(loaded_by_tr.predict(tr.DMatrix(x)),
                                   theirs.predict(xgb.DMatrix(x)), atol=1e-6)
        # The legacy binary format keeps no round count (XGBoost reads 0 too).
        assert loaded_by_tr.num_boosted_rounds() == loaded_by_xgb.num_boosted_rounds()


def test_dump_importance_contribs_config():
    x, labels = make_data(seed=3)
    for objective in ("reg:squarederror", "multi:softprob"):
        ours, theirs = both(dict(objective=objective), x, labels[objective], rounds=3)
        assert ours.get_dump() == theirs.get_dump()
        assert ours.get_dump(dump_format="json") == theirs.get_dump(dump_format="json")
        a, b = ours.get_score(importance_type="weight"), theirs.get_score()
        assert a.keys() == b.keys()
        for k in a:
            np.testing.assert_allclose(a[k], b[k], atol=TOL)
        np.testing.assert_allclose(ours.predict(tr.DMatrix(x), pred_contribs=True),
                                   theirs.predict(xgb.DMatrix(x), pred_contribs=True), atol=TOL)
        ours_gb = json.loads(ours.save_config())["learner"]["gradient_booster"]
        assert ours_gb == json.loads(theirs.save_config())["learner"]["gradient_booster"]
        # iteration_range: the end is ignored, a begin other than 0 refused (1.7's message).
        np.testing.assert_array_equal(ours.predict(tr.DMatrix(x), iteration_range=(0, 1)),
                                      ours.predict(tr.DMatrix(x)))
        with pytest.raises(tr.core.XGBoostError, match="does not support prediction range"):
            ours.predict(tr.DMatrix(x), iteration_range=(1, 2))
        with pytest.raises(tr.core.XGBoostError, match="prediction of leaf index"):
            ours.predict(tr.DMatrix(x), pred_leaf=True)
        with pytest.raises(tr.core.XGBoostError, match="gblinear does not support"):
            ours.predict(tr.DMatrix(x), pred_interactions=True)
        with pytest.raises(tr.core.XGBoostError, match="Slice is not supported"):
            ours[0:1]


def test_continued_training_and_custom_objective():
    x, labels = make_data(seed=6)
    y = labels["binary:logistic"]
    p = dict(booster="gblinear", objective="binary:logistic", nthread=1)

    def logistic(preds, dtrain):
        prob = 1 / (1 + np.exp(-preds))
        return prob - dtrain.get_label(), prob * (1 - prob)

    for lib in (tr, xgb):
        first = lib.train(p, lib.DMatrix(x, y), 2)
        resumed = lib.train(p, lib.DMatrix(x, y), 3, xgb_model=first)
        assert resumed.num_boosted_rounds() == 5
        np.testing.assert_allclose(weights(resumed), weights(lib.train(p, lib.DMatrix(x, y), 5)),
                                   atol=TOL)
    ours = tr.train(dict(booster="gblinear", nthread=1), tr.DMatrix(x, y), 3, obj=logistic)
    theirs = xgb.train(dict(booster="gblinear", nthread=1), xgb.DMatrix(x, y), 3, obj=logistic)
    np.testing.assert_allclose(weights(ours), weights(theirs), atol=TOL)


def test_sklearn_coef_and_intercept():
    pytest.importorskip("sklearn")
    x, labels = make_data(seed=4)
    y = labels["multi:softprob"]
    for ours, theirs, target in (
            (tr.XGBClassifier, xgb.XGBClassifier, y),
            (tr.XGBRegressor, xgb.XGBRegressor, labels["reg:squarederror"])):
        a = ours(booster="gblinear", n_estimators=4, n_jobs=1).fit(x, target)
        b = theirs(booster="gblinear", n_estimators=4, n_jobs=1).fit(x, target)
        assert a.coef_.shape == b.coef_.shape
        np.testing.assert_allclose(a.coef_, b.coef_, atol=TOL)
        np.testing.assert_allclose(a.intercept_, b.intercept_, atol=TOL)
    with pytest.raises(AttributeError, match="not defined for Booster type"):
        _ = tr.XGBRegressor(n_estimators=2).fit(x, target).coef_


@pytest.mark.parametrize("bad,key", [({"feature_selector": "bogus"}, "feature_selector"),
                                     ({"top_k": -1}, "top_k"), ({"updater": "nope"}, "updater"),
                                     ({"reg_lambda": -1}, "reg_lambda"),
                                     ({"feature_selector": "greedy"}, "feature_selector")])
def test_bad_keys_name_the_key(bad, key):
    x, labels = make_data(rows=20)
    with pytest.raises(tr.core.XGBoostError, match=key) as err:
        tr.train(dict(booster="gblinear", **bad), tr.DMatrix(x, labels["reg:squarederror"]), 1)
    assert len(str(err.value).splitlines()) == 1


def test_tree_keys_are_unused_with_a_warning_as_in_xgboost(capsys):
    # XGBoost 1.7 trains gblinear with gbtree's keys set (scripts and grid searches that
    # switch booster keep them) and warns that they are not used; a key no booster has
    # stays an error in treering.
    x, labels = make_data(rows=60)
    params = {"max_depth": 3, "tree_method": "hist", "subsample": 0.5}
    ours, theirs = both(params, x, labels["reg:squarederror"], rounds=3)
    np.testing.assert_allclose(weights(ours), weights(theirs), atol=TOL)
    said = capsys.readouterr().out
    assert '"max_depth"' in said and '"subsample"' in said and "are not used" in said, said
    with pytest.raises(tr.core.XGBoostError, match="unknown parameter 'max_dpth'"):
        tr.train({"booster": "gblinear", "max_dpth": 3},
                 tr.DMatrix(x, labels["reg:squarederror"]), 1)
    # And the other way: gblinear's keys on a tree booster.
    tr.train({"booster": "gbtree", "feature_selector": "cyclic"},
             tr.DMatrix(x, labels["reg:squarederror"]), 1)
    assert capsys.readouterr().out.count('{ "feature_selector" } are not used') == 1


def write_libsvm(path, x, y):
    with open(path, "w") as f:
        for row, label in zip(x, y):
            items = " ".join(f"{j}:{v:.6g}" for j, v in enumerate(row) if not np.isnan(v))
            f.write(f"{label:g} {items}\n")


def test_two_workers_train_the_one_process_model(tmp_path):
    from treering.tracker import RabitTracker
    x, labels = make_data(rows=400, seed=5)
    y = labels["binary:logistic"]
    train, test = tmp_path / "train.libsvm", tmp_path / "test.libsvm"
    write_libsvm(train, x, y)
    write_libsvm(test, x[:50], y[:50])
    params = ["booster=gblinear", "objective=binary:logistic", "updater=coord_descent",
              "feature_selector=greedy", "top_k=3", "lambda=0.1", "n_features=6"]
    tracker = RabitTracker("127.0.0.1", 2, timeout=60)
    tracker.start(2)
    env = dict(os.environ, TREERING_TEST_WORKER_ARGS=json.dumps(tracker.worker_envs()),
               OMP_NUM_THREADS="1")
    model = tmp_path / "dist.json"
    procs = [subprocess.Popen([sys.executable, os.path.join(HERE, "dist_worker.py"), "train",
                               str(i), str(train), str(test), str(model), "4"] + params,
                              env=env, stderr=subprocess.PIPE, text=True) for i in range(2)]
    for p in procs:
        _, err = p.communicate(timeout=60)
        assert p.returncode == 0, err
    tracker.join(30)
    # One process on the same (printed, re-read) rows.
    dm = tr.DMatrix(f"{train}?format=libsvm")
    single = tr.train(dict(kv.split("=") for kv in params if not kv.startswith("n_")), dm, 4)
    np.testing.assert_allclose(weights(tr.Booster(model_file=str(model))), weights(single),
                               atol=1e-6)


def test_killed_worker_restarts_into_the_uninterrupted_model(tmp_path):
    """treering-submit --local-num-attempt restarts a worker killed after round 2; the rabit
    checkpoint (the gblinear model) brings it back, and the model is the CLI's uninterrupted
    one, byte for byte (cyclic: no random stream to restart)."""
    build = os.environ.get("TREERING_BUILD_DIR", "")
    submit, cli = (os.path.join(build, "bin", p) for p in ("treering-submit", "treering"))
    if not (os.path.exists(submit) and os.path.exists(cli)):
        pytest.skip(f"treering and treering-submit are not built in {build!r}")
    x, labels = make_data(rows=600, seed=7)
    x = x.astype(np.float32)
    train, test = tmp_path / "train.libsvm", tmp_path / "test.libsvm"
    write_libsvm(train, x, labels["binary:logistic"])
    write_libsvm(test, x[:100], labels["binary:logistic"][:100])
    keys = ["booster=gblinear", "objective=binary:logistic", "updater=coord_descent",
            "eval_metric=auc", "lambda=0.1", "nthread=1"]
    launch = [submit, "--cluster", "local", "--num-workers", "2", "--bind-to", "none"]
    cli_model, py_model = tmp_path / "cli.json", tmp_path / "py.json"
    proc = subprocess.run(launch + ["--", cli, "/dev/null", f"data={train}",
                                    f"eval[test]={test}", "num_round=5",
                                    f"model_out={cli_model}"] + keys,
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    env = dict(os.environ, TREERING_TEST_KILL="1,2")
    proc = subprocess.run(launch + ["--local-num-attempt", "2", "--", sys.executable,
                                    os.path.join(HERE, "dist_worker.py"), "train", "env",
                                    str(train), str(test), str(py_model), "5", "n_features=6"]
                          + keys, capture_output=True, text=True, timeout=60, cwd=tmp_path,
                          env=env)
    assert proc.returncode == 0, proc.stderr
    assert "restart" in (proc.stdout + proc.stderr).lower(), "no worker was restarted"
    np.testing.assert_array_equal(weights(tr.Booster(model_file=str(py_model))),
                                  weights(tr.Booster(model_file=str(cli_model))))
