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


def test_boosted_forest_counts_rounds_as_xgboost():
    """Multi-class, 2 trees per class per round, no sampling: every count is in rounds."""
    x, y = make_data(300, kind="multi", seed=6)
    params = dict(objective="multi:softprob", num_class=3, num_parallel_tree=2,
                  tree_method="hist", max_depth=3, eta=0.4, nthread=1)
    ours = tr.train(params, tr.DMatrix(x, label=y), 4)
    theirs = xgb.train(params, xgb.DMatrix(x, label=y), 4)
    od, td = tr.DMatrix(x), xgb.DMatrix(x)
    assert ours.num_boosted_rounds() == theirs.num_boosted_rounds() == 4
    assert len(ours.get_dump()) == len(theirs.get_dump()) == 24
    close(ours.predict(od), theirs.predict(td), "predict")
    for rounds in ((0, 2), (1, 3)):
        close(ours.predict(od, iteration_range=rounds), theirs.predict(td, iteration_range=rounds),
              str(rounds))
    close(ours.predict(od, pred_leaf=True), theirs.predict(td, pred_leaf=True), "pred_leaf")
    close(ours.predict(od, pred_leaf=True, strict_shape=True),
          theirs.predict(td, pred_leaf=True, strict_shape=True), "strict pred_leaf")
    close(ours.predict(od, pred_interactions=True), theirs.predict(td, pred_interactions=True),
          "pred_interactions", 1e-5)
    close(ours[1:3].predict(od), theirs[1:3].predict(td), "slice [1:3]")
    # Two rounds, saved, two more: the four-round forest (XGBoost's too).
    first = tr.train(params, tr.DMatrix(x, label=y), 2)
    resumed = tr.train(params, tr.DMatrix(x, label=y), 2, xgb_model=first)
    assert np.array_equal(resumed.predict(od), ours.predict(od))
