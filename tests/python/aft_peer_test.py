"""survival:aft (accelerated failure time) against python3-xgboost 1.7.4: predictions,
margins and the survival metrics for the three noise distributions and the four kinds of
label interval (uncensored, right-, left- and interval-censored), trained from
label_lower_bound / label_upper_bound alone as XGBoost allows."""
import json

import numpy as np
import pytest

xgb = pytest.importorskip("xgboost", reason="python3-xgboost 1.7.4 (the peer) is needed")
if not xgb.__version__.startswith("1.7"):
    pytest.skip(f"the peer is xgboost {xgb.__version__}, not 1.7", allow_module_level=True)

import treering as tr  # noqa: E402

KINDS = ("uncensored", "right", "left", "interval")


def survival_data(rows=300, seed=0, kinds=KINDS, spread=1.0):
    """Features and [lower, upper] per row, each row one of `kinds` (in turn)."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(rows, 5))
    x[rng.random(size=x.shape) < 0.05] = np.nan
    log_t = 0.8 * np.nan_to_num(x[:, 0]) - 0.5 * np.nan_to_num(x[:, 1]) + \
        spread * rng.normal(size=rows)
    t = np.exp(log_t)
    lower, upper = t.copy(), t.copy()
    for i in range(rows):
        kind = kinds[i % len(kinds)]
        if kind == "right":
            upper[i] = np.inf
        elif kind == "left":
            lower[i] = 0.0
        elif kind == "interval":
            lower[i] = t[i] * 0.7
            upper[i] = t[i] * 1.6
    return x, lower.astype(np.float32), upper.astype(np.float32)


def train_both(params, x, lower, upper, rounds=8, weight=None, label=None):
    out = {}
    for name, mod in (("treering", tr), ("xgboost", xgb)):
        d = mod.DMatrix(x, label=label, weight=weight, label_lower_bound=lower,
                        label_upper_bound=upper)
        log = {}
        booster = mod.train({"tree_method": "hist", "nthread": 1, "max_depth": 3, **params},
                            d, rounds, evals=[(d, "train")], evals_result=log,
                            verbose_eval=False)
        out[name] = (booster, d, log)
    return out


def compare(out, what, tol=1e-5):
    (ours, d_ours, log_ours), (theirs, d_theirs, log_theirs) = out["treering"], out["xgboost"]
    np.testing.assert_allclose(ours.predict(d_ours, output_margin=True),
                               theirs.predict(d_theirs, output_margin=True),
                               rtol=tol, atol=tol, err_msg=what + ": margins")
    np.testing.assert_allclose(ours.predict(d_ours), theirs.predict(d_theirs), rtol=tol,
                               atol=tol, err_msg=what + ": predictions")
    assert log_ours["train"].keys() == log_theirs["train"].keys(), what
    for metric, values in log_theirs["train"].items():
        np.testing.assert_allclose(log_ours["train"][metric], values, rtol=tol, atol=tol,
                                   err_msg=f"{what}: {metric}")


@pytest.mark.parametrize("distribution", ["normal", "logistic", "extreme"])
@pytest.mark.parametrize("scale", [1.0, 0.7, 2.5])
def test_mixed_censoring_matches_xgboost(distribution, scale):
    x, lower, upper = survival_data(seed=int(scale * 10))
    params = {"objective": "survival:aft", "aft_loss_distribution": distribution,
              "aft_loss_distribution_scale": scale, "learning_rate": 0.3,
              "eval_metric": ["aft-nloglik", "interval-regression-accuracy"]}
    compare(train_both(params, x, lower, upper), f"{distribution} scale {scale}")


@pytest.mark.parametrize("distribution", ["normal", "logistic", "extreme"])
@pytest.mark.parametrize("kind", KINDS)
def test_each_censoring_kind_matches_xgboost(distribution, kind):
    x, lower, upper = survival_data(rows=200, seed=len(kind), kinds=(kind,))
    params = {"objective": "survival:aft", "aft_loss_distribution": distribution,
              "aft_loss_distribution_scale": 1.2,
              "eval_metric": ["aft-nloglik", "interval-regression-accuracy"]}
    compare(train_both(params, x, lower, upper), f"{distribution} {kind}")


@pytest.mark.parametrize("distribution", ["normal", "logistic", "extreme"])
def test_far_intervals_hit_xgboost_limits_and_clipping(distribution):
    """Times spanning many decades and a small scale: z-scores of hundreds, where the pdf and
    cdf underflow and XGBoost's limit gradients and [-15, 15] clipping take over."""
    x, lower, upper = survival_data(rows=240, seed=5, spread=12.0)
    params = {"objective": "survival:aft", "aft_loss_distribution": distribution,
              "aft_loss_distribution_scale": 0.05, "learning_rate": 0.5, "max_depth": 2}
    compare(train_both(params, x, lower, upper, rounds=5), f"{distribution} far")


def test_default_metric_and_weights_and_labels_as_xgboost():
    """The default aft-nloglik uses a normal distribution of scale 1 whatever the objective's
    (XGBoost 1.7 configures only a named metric); weights scale gradients; a label beside the
    bounds is ignored."""
    x, lower, upper = survival_data(seed=3)
    w = np.random.default_rng(3).uniform(0.2, 2.0, size=len(lower)).astype(np.float32)
    params = {"objective": "survival:aft", "aft_loss_distribution": "logistic",
              "aft_loss_distribution_scale": 1.4}
    out = train_both(params, x, lower, upper, weight=w, label=np.ones(len(lower)))
    assert list(out["treering"][2]["train"]) == ["aft-nloglik"]
    compare(out, "default metric, weights")


def test_model_config_and_reload_as_xgboost(tmp_path):
    x, lower, upper = survival_data(seed=4)
    params = {"objective": "survival:aft", "aft_loss_distribution": "extreme",
              "aft_loss_distribution_scale": 0.8}
    out = train_both(params, x, lower, upper, rounds=4)
    ours, theirs = out["treering"][0], out["xgboost"][0]
    assert json.loads(ours.save_config())["learner"]["objective"] == \
        json.loads(theirs.save_config())["learner"]["objective"]
    assert json.loads(ours.save_raw("json"))["learner"]["objective"] == \
        json.loads(theirs.save_raw("json"))["learner"]["objective"]
    assert json.loads(ours.save_raw("json"))["learner"]["learner_model_param"]["base_score"] == \
        json.loads(theirs.save_raw("json"))["learner"]["learner_model_param"]["base_score"]
    # XGBoost's model file read by treering, and treering's by XGBoost.
    theirs.save_model(str(tmp_path / "xgb.json"))
    ours.save_model(str(tmp_path / "tr.json"))
    d = tr.DMatrix(x)
    np.testing.assert_allclose(tr.Booster(model_file=str(tmp_path / "xgb.json")).predict(d),
                               theirs.predict(xgb.DMatrix(x)), rtol=1e-6)
    np.testing.assert_allclose(xgb.Booster(model_file=str(tmp_path / "tr.json")).predict(
        xgb.DMatrix(x)), ours.predict(d), rtol=1e-6)


def test_set_float_info_and_bad_bounds():
    x, lower, upper = survival_data(rows=50, seed=6)
    d = tr.DMatrix(x)
    d.set_float_info("label_lower_bound", lower)
    d.set_float_info("label_upper_bound", upper)
    np.testing.assert_array_equal(d.get_float_info("label_upper_bound"), upper)
    tr.train({"objective": "survival:aft"}, d, 1)
    bad = upper.copy()
    bad[7] = lower[7] / 2 if lower[7] > 0 else -1.0
    d.set_float_info("label_upper_bound", bad)
    with pytest.raises(tr.core.XGBoostError, match="row 7"):
        tr.train({"objective": "survival:aft"}, d, 1)
    with pytest.raises(tr.core.XGBoostError, match="label_lower_bound"):
        tr.train({"objective": "survival:aft"}, tr.DMatrix(x, label=np.ones(50)), 1)
    with pytest.raises(tr.core.XGBoostError, match="aft_loss_distribution"):
        tr.train({"objective": "survival:aft", "aft_loss_distribution": "weibull"}, d, 1)


def test_file_matrix_reads_the_bounds_side_file(tmp_path):
    """XGDMatrixCreateFromFile takes FILE.bounds as the CLI does (docs/data.md); a bad line
    is an error naming FILE:LINE."""
    path = tmp_path / "surv.libsvm"
    path.write_text("0 0:1\n0 0:2\n0 0:3\n")
    (tmp_path / "surv.libsvm.bounds").write_text("1 1\n2 inf\n0,4\n")
    d = tr.DMatrix(str(path) + "?format=libsvm")
    np.testing.assert_array_equal(d.get_float_info("label_lower_bound"), [1, 2, 0])
    np.testing.assert_array_equal(d.get_float_info("label_upper_bound"), [1, np.inf, 4])
    (tmp_path / "surv.libsvm.bounds").write_text("1 1\n2 inf\n5 4\n")
    with pytest.raises(tr.core.XGBoostError, match=r"surv.libsvm.bounds:3: LOWER 5"):
        tr.DMatrix(str(path) + "?format=libsvm")


@pytest.mark.parametrize("dist", ["normal", "logistic", "extreme"])
def test_gblinear_aft_with_configured_metric(dist):
    # gblinear shares the objective and the metric set-up with gbtree: an explicit
    # aft-nloglik takes the objective's distribution and scale, as in XGBoost 1.7.
    x, lower, upper = survival_data(rows=240, seed=7)
    x = np.nan_to_num(x)
    out = train_both({"booster": "gblinear", "updater": "coord_descent",
                      "objective": "survival:aft", "aft_loss_distribution": dist,
                      "aft_loss_distribution_scale": 1.5, "eval_metric": "aft-nloglik"},
                     x, lower, upper, rounds=6)
    compare(out, "gblinear " + dist, tol=1e-4)
