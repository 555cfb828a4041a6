"""Several outputs per row (issue 35 items 5 and 4).

Multi-target regression (labels as rows x targets, one tree per target per round) against
python3-xgboost 1.7.4: predictions, metrics, prediction shapes and models in every format both
ways. reg:quantileerror is XGBoost 2.x's (1.7 has none), so it is checked against computed
expectations: coverage of each predicted quantile, the quantile metric recomputed from the
predictions, and the 0.5 quantile model equal to reg:absoluteerror's where the algorithms are
the same (eta = 1, before any residual is exactly 0)."""
import json
import os
import tempfile

import numpy as np
import pytest

from sklearn_common import SAME, close, tr, xgb

FORMATS = ("json", "ubj", "deprecated")


def targets_data(rows=300, targets=3, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(rows, 4))
    x[rng.random(size=x.shape) < 0.1] = np.nan
    base = np.nan_to_num(x)
    y = np.stack([base[:, 0] + 0.1 * rng.normal(size=rows), 2 * base[:, 1],
                  base[:, 2] * base[:, 3]][:targets], axis=1)
    return x, y, rng.uniform(0.5, 2.0, size=rows)


def save_load(booster, fmt, make):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "model." + ("bin" if fmt == "deprecated" else fmt))
        booster.save_model(path)
        return make(model_file=path)


@pytest.mark.parametrize("objective", ["reg:squarederror", "reg:pseudohubererror",
                                       "reg:logistic", "binary:logistic"])
def test_targets_equal_xgboost(objective):
    x, y, w = targets_data()
    if objective in ("reg:logistic", "binary:logistic"):
        y = (y > 0).astype(np.float64)
    params = {"objective": objective, "tree_method": "hist", "max_depth": 3, "eta": 0.4,
              "nthread": 1}
    res_ours, res_theirs = {}, {}
    ours = tr.train(params, tr.DMatrix(x, label=y, weight=w), 5,
                    evals=[(tr.DMatrix(x, label=y, weight=w), "train")],
                    evals_result=res_ours, verbose_eval=False)
    theirs = xgb.train(params, xgb.DMatrix(x, label=y, weight=w), 5,
                       evals=[(xgb.DMatrix(x, label=y, weight=w), "train")],
                       evals_result=res_theirs, verbose_eval=False)
    assert res_ours == res_theirs
    close(ours.predict(tr.DMatrix(x)), theirs.predict(xgb.DMatrix(x)), "predict")
    close(ours.predict(tr.DMatrix(x), output_margin=True),
          theirs.predict(xgb.DMatrix(x), output_margin=True), "margin")
    close(ours.inplace_predict(x), theirs.inplace_predict(x), "inplace_predict")
    close(ours.predict(tr.DMatrix(x), strict_shape=True),
          theirs.predict(xgb.DMatrix(x), strict_shape=True), "strict_shape")
    close(ours.predict(tr.DMatrix(x), iteration_range=(1, 3)),
          theirs.predict(xgb.DMatrix(x), iteration_range=(1, 3)), "iteration_range")
    mine = json.loads(ours.save_raw("json"))["learner"]
    assert mine["learner_model_param"]["num_target"] == "3"
    assert mine["gradient_booster"]["model"]["tree_info"] == [0, 1, 2] * 5
    assert ours.get_dump() == theirs.get_dump()


@pytest.mark.parametrize("fmt", FORMATS)
def test_models_cross_both_ways(fmt):
    x, y, _ = targets_data(seed=1)
    params = {"tree_method": "hist", "max_depth": 3, "nthread": 1}
    ours = tr.train(params, tr.DMatrix(x, label=y), 4)
    theirs = xgb.train(params, xgb.DMatrix(x, label=y), 4)
    expect = theirs.predict(xgb.DMatrix(x))
    loaded_by_peer = save_load(ours, fmt, xgb.Booster)
    close(loaded_by_peer.predict(xgb.DMatrix(x)), expect, f"xgboost loads treering's {fmt}")
    loaded_by_us = save_load(theirs, fmt, tr.Booster)
    close(loaded_by_us.predict(tr.DMatrix(x)), expect, f"treering loads xgboost's {fmt}")
    # Training continues from the loaded model with one tree per target per round.
    more = tr.train(params, tr.DMatrix(x, label=y), 2, xgb_model=loaded_by_us)
    more_theirs = xgb.train(params, xgb.DMatrix(x, label=y), 2, xgb_model=theirs)
    close(more.predict(tr.DMatrix(x)), more_theirs.predict(xgb.DMatrix(x)), "continued")


def test_custom_objective_with_num_target():
    x, y, _ = targets_data(seed=2, targets=2)

    def squared(predt, dtrain):
        labels = dtrain.get_label().reshape(predt.shape)
        return (predt - labels).reshape(-1), np.ones(predt.size)

    params = {"tree_method": "hist", "num_target": 2, "nthread": 1, "max_depth": 3}
    ours = tr.train(params, tr.DMatrix(x, label=y), 4, obj=squared)
    theirs = xgb.train(params, xgb.DMatrix(x, label=y), 4, obj=squared)
    close(ours.inplace_predict(x), theirs.inplace_predict(x), "custom objective")


def test_regressor_with_2d_y():
    x, y, _ = targets_data(seed=3)
    ours = tr.XGBRegressor(n_estimators=8, max_depth=3, **SAME).fit(x, y, eval_set=[(x, y)],
                                                                    verbose=False)
    theirs = xgb.XGBRegressor(n_estimators=8, max_depth=3, **SAME).fit(x, y, eval_set=[(x, y)],
                                                                       verbose=False)
    assert ours.predict(x).shape == (len(x), 3)
    close(ours.predict(x), theirs.predict(x), "XGBRegressor 2-D y")
    assert ours.evals_result() == theirs.evals_result()


def test_target_errors_name_the_key():
    x, y, _ = targets_data(seed=4, targets=2)
    with pytest.raises(tr.core.XGBoostError, match="objective.*one label column"):
        tr.train({"objective": "count:poisson"}, tr.DMatrix(x, label=np.abs(y)), 1)
    with pytest.raises(tr.core.XGBoostError, match="multi_strategy"):
        tr.train({"multi_strategy": "multi_output_tree"}, tr.DMatrix(x, label=y), 1)
    ok = tr.train({"multi_strategy": "one_output_per_tree", "nthread": 1},
                  tr.DMatrix(x, label=y), 1)
    assert ok.predict(tr.DMatrix(x)).shape == (len(x), 2)
    with pytest.raises(tr.core.XGBoostError, match="3 columns"):
        tr.train({"nthread": 1}, tr.DMatrix(x, label=y), 1,
                 evals=[(tr.DMatrix(x, label=np.hstack([y, y[:, :1]])), "bad")])


def noisy(rows, seed):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-2, 2, size=(rows, 3))
    y = 2 * x[:, 0] + (1 + np.abs(x[:, 1])) * rng.normal(size=rows)
    return x, y


def pinball(y, p, alphas):
    d = y[:, None] - p
    return float(np.mean(np.where(d >= 0, alphas * d, (alphas - 1) * d)))


def test_quantiles_cover_their_alpha():
    x, y = noisy(5000, 7)
    alphas = np.array([0.1, 0.5, 0.9])
    res = {}
    booster = tr.train({"objective": "reg:quantileerror", "quantile_alpha": list(alphas),
                        "tree_method": "hist", "eta": 0.3, "nthread": 1},
                       tr.DMatrix(x, label=y), 30, evals=[(tr.DMatrix(x, label=y), "train")],
                       evals_result=res, verbose_eval=False)
    pred = booster.predict(tr.DMatrix(x))
    assert pred.shape == (5000, 3)
    coverage = (y[:, None] <= pred).mean(axis=0)
    print("coverage", coverage)
    assert np.all(np.abs(coverage - alphas) < 0.03), coverage
    # The default metric is quantile: the pinball loss averaged over rows x alphas.
    assert abs(res["train"]["quantile"][-1] - pinball(y, pred, alphas)) < 1e-5
    config = json.loads(booster.save_config())["learner"]["learner_model_param"]
    assert config["num_target"] == "3"
    # The config-string form and a model reload give the same predictions.
    again = tr.train({"objective": "reg:quantileerror", "quantile_alpha": "[0.1,0.5,0.9]",
                      "tree_method": "hist", "eta": 0.3, "nthread": 1},
                     tr.DMatrix(x, label=y), 30)
    np.testing.assert_array_equal(again.predict(tr.DMatrix(x)), pred)
    for fmt in FORMATS:
        loaded = save_load(booster, fmt, tr.Booster)
        np.testing.assert_array_equal(loaded.predict(tr.DMatrix(x)), pred, err_msg=fmt)


def test_median_quantile_is_absolute_error():
    """2.x's quantile 0.5 and absoluteerror share gradients up to a factor 1/2 (sign(0) = 0 for
    absoluteerror, +1/2 for the pinball loss) and refresh leaves to the median: with eta = 1
    (1.7's absoluteerror does not scale refreshed leaves by eta, 2.x does) the models agree
    until a residual is exactly 0, and stay as good after."""
    x, y = noisy(2000, 8)
    common = {"tree_method": "hist", "eta": 1.0, "max_depth": 3, "nthread": 1}
    for rounds in (1, 2):
        absolute = tr.train({"objective": "reg:absoluteerror", **common},
                            tr.DMatrix(x, label=y), rounds)
        median = tr.train({"objective": "reg:quantileerror", "quantile_alpha": 0.5, **common},
                          tr.DMatrix(x, label=y), rounds)
        np.testing.assert_array_equal(median.predict(tr.DMatrix(x)),
                                      absolute.predict(tr.DMatrix(x)))
    absolute = tr.train({"objective": "reg:absoluteerror", **common}, tr.DMatrix(x, label=y), 20)
    median = tr.train({"objective": "reg:quantileerror", "quantile_alpha": 0.5, **common},
                      tr.DMatrix(x, label=y), 20)
    mae = [float(np.mean(np.abs(b.predict(tr.DMatrix(x)) - y))) for b in (absolute, median)]
    assert mae[1] <= mae[0] * 1.02, mae


def test_quantile_errors_name_the_key():
    x, y = noisy(100, 9)
    for alpha in (1.5, 0.0, [], "[0.2,x]"):
        with pytest.raises(tr.core.XGBoostError, match="quantile_alpha"):
            tr.train({"objective": "reg:quantileerror", "quantile_alpha": alpha},
                     tr.DMatrix(x, label=y), 1)
    with pytest.raises(tr.core.XGBoostError, match="2 columns.*quantile_alpha"):
        tr.train({"objective": "reg:quantileerror", "quantile_alpha": [0.1, 0.9]},
                 tr.DMatrix(x, label=np.stack([y, y], axis=1)), 1)


def test_target_explanations_equal_xgboost():
    x, y, _ = targets_data(seed=5, targets=2)
    params = {"tree_method": "hist", "max_depth": 3, "nthread": 1}
    ours = tr.train(params, tr.DMatrix(x, label=y), 3)
    theirs = xgb.train(params, xgb.DMatrix(x, label=y), 3)
    for kw in (dict(pred_leaf=True), dict(pred_contribs=True), dict(pred_interactions=True),
               dict(pred_leaf=True, strict_shape=True)):
        close(ours.predict(tr.DMatrix(x), **kw), theirs.predict(xgb.DMatrix(x), **kw), str(kw),
              1e-5)


def test_cli_quantile_config(tmp_path):
    """The treering CLI: quantile_alpha as a config list; a bad value names file, line, key."""
    cli = os.path.join(os.environ.get("TREERING_BUILD_DIR", ""), "bin", "treering")
    if not os.path.exists(cli):
        pytest.skip(f"{cli} is not built (target treering)")
    import subprocess
    x, y = noisy(1000, 10)
    data = tmp_path / "train.libsvm"
    data.write_text("".join(f"{y[r]:.9g} " + " ".join(f"{j}:{x[r, j]:.9g}" for j in range(3))
                            + "\n" for r in range(len(y))))
    conf = tmp_path / "q.conf"
    conf.write_text(f"objective = reg:quantileerror\nquantile_alpha = [0.1,0.9]\n"
                    f"tree_method = hist\nnthread = 1\nnum_round = 5\ndata = {data}\n"
                    f"model_out = {tmp_path / 'q.json'}\n")
    subprocess.run([cli, str(conf)], check=True, capture_output=True)
    booster = tr.Booster(model_file=str(tmp_path / "q.json"))
    assert booster.predict(tr.DMatrix(x)).shape == (1000, 2)
    again = tr.train({"objective": "reg:quantileerror", "quantile_alpha": [0.1, 0.9],
                      "tree_method": "hist", "nthread": 1}, tr.DMatrix(x, label=y), 5)
    np.testing.assert_allclose(booster.predict(tr.DMatrix(x)), again.predict(tr.DMatrix(x)),
                               rtol=1e-6, atol=1e-6)
    conf.write_text(f"objective = reg:quantileerror\nquantile_alpha = [0.1,1.5]\ndata = {data}\n")
    run = subprocess.run([cli, str(conf)], capture_output=True, text=True)
    assert run.returncode != 0
    assert f"{conf}:2: parameter quantile_alpha" in run.stderr, run.stderr


def test_targets_through_quantile_dmatrix_and_slices():
    x, y, w = targets_data(seed=6, targets=2)
    params = {"tree_method": "hist", "max_depth": 3, "nthread": 1}
    ours = tr.train(params, tr.QuantileDMatrix(x, label=y, weight=w), 3)
    theirs = xgb.train(params, xgb.QuantileDMatrix(x, label=y, weight=w), 3)
    close(ours.predict(tr.DMatrix(x)), theirs.predict(xgb.DMatrix(x)), "QuantileDMatrix")
    rows = [0, 5, 7]
    ours_slice = tr.DMatrix(x, label=y).slice(rows)
    theirs_slice = xgb.DMatrix(x, label=y).slice(rows)
    close(ours_slice.get_label(), theirs_slice.get_label(), "sliced labels")
    close(ours.predict(ours_slice), theirs.predict(theirs_slice), "sliced predict")


def test_regressor_quantiles_from_numpy_alpha():
    """XGBoost 2.x's quantile_regression.py demo passes quantile_alpha as a numpy array."""
    x, y = noisy(2000, 11)
    alphas = np.array([0.05, 0.5, 0.95])
    model = tr.XGBRegressor(objective="reg:quantileerror", quantile_alpha=alphas,
                            n_estimators=30, learning_rate=0.3, **SAME)
    model.fit(x, y, eval_set=[(x, y)], verbose=False)
    pred = model.predict(x)
    assert pred.shape == (2000, 3)
    assert list(model.evals_result()["validation_0"]) == ["quantile"]
    coverage = (y[:, None] <= pred).mean(axis=0)
    assert np.all(np.abs(coverage - alphas) < 0.03), coverage


def test_quantile_default_tree_method_is_hist():
    """2.x's default tree_method is hist; unset, the quantile model is the hist model."""
    x, y = noisy(500, 12)
    params = {"objective": "reg:quantileerror", "quantile_alpha": [0.3, 0.7], "nthread": 1}
    unset = tr.train(params, tr.DMatrix(x, label=y), 5)
    hist = tr.train({**params, "tree_method": "hist"}, tr.DMatrix(x, label=y), 5)
    np.testing.assert_array_equal(unset.predict(tr.DMatrix(x)), hist.predict(tr.DMatrix(x)))
