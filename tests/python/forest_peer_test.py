"""treering's random forests (XGBRFRegressor, XGBRFClassifier: num_parallel_tree) against
python3-xgboost 1.7.4's. With subsample / colsample_bynode < 1 the random streams differ from
XGBoost's (docs/learner.md), so the forests are compared by held-out metric; without sampling
every tree is the single tree, and predictions agree to 1e-6."""
import numpy as np

from sklearn_common import SAME, both, close, make_data, tr, xgb


def test_rf_regressor_metric_no_worse_than_xgboost():
    x, y = make_data(3000, kind="regression", seed=3)
    ours, theirs = both("XGBRFRegressor", n_estimators=50, max_depth=6, **SAME)
    ours.fit(x[:2000], y[:2000])
    theirs.fit(x[:2000], y[:2000])
    rmse = {}
    for tag, est in (("treering", ours), ("xgboost", theirs)):
        rmse[tag] = float(np.sqrt(np.mean((est.predict(x[2000:]) - y[2000:]) ** 2)))
    print("XGBRFRegressor held-out RMSE:", rmse)
    assert rmse["treering"] <= rmse["xgboost"] * 1.02, rmse
    assert ours.get_booster().num_boosted_rounds() == 1
    # Same seed, same forest.
    again = type(ours)(n_estimators=50, max_depth=6, **SAME).fit(x[:2000], y[:2000])
    assert np.array_equal(again.predict(x[2000:]), ours.predict(x[2000:]))


def test_rf_classifier_without_sampling_equals_xgboost():
    x, y = make_data(400, kind="binary", seed=4)
    ours, theirs = both("XGBRFClassifier", n_estimators=3, subsample=1.0, colsample_bynode=1.0,
                        max_depth=4, **SAME)
    ours.fit(x, y)
    theirs.fit(x, y)
    close(ours.predict_proba(x), theirs.predict_proba(x), "predict_proba")
    assert np.array_equal(ours.apply(x), theirs.apply(x))
    close(ours.get_booster().predict(tr.DMatrix(x), pred_contribs=True),
          theirs.get_booster().predict(xgb.DMatrix(x), pred_contribs=True), "pred_contribs", 1e-5)
