"""treering's scikit-learn estimators fit, evaluate and predict as XGBoost 1.7.4's do."""
import json
import warnings

import numpy as np
import pytest
import scipy.sparse

from sklearn_common import SAME, both, close, make_data, tr, xgb


def fit_both(cls_name, x, y, fit_args=None, **params):
    ours, theirs = both(cls_name, **params)
    ours.fit(x, y, **(fit_args or {}))
    theirs.fit(x, y, **(fit_args or {}))
    return ours, theirs


def test_binary_classifier_predictions_probas_leaves():
    x, y = make_data(400, kind="binary")
    weight = np.random.default_rng(5).uniform(0.5, 2.0, size=300)
    ours, theirs = fit_both("XGBClassifier", x[:300], y[:300], {"sample_weight": weight},
                            n_estimators=15, max_depth=4, **SAME)
    test = x[300:]
    close(ours.predict_proba(test), theirs.predict_proba(test), "predict_proba")
    assert np.array_equal(ours.predict(test), theirs.predict(test))
    assert ours.predict(test).dtype == theirs.predict(test).dtype
    close(ours.predict(test, output_margin=True), theirs.predict(test, output_margin=True),
          "margin")
    assert np.array_equal(ours.apply(test), theirs.apply(test))
    close(ours.apply(test, iteration_range=(0, 7)), theirs.apply(test, iteration_range=(0, 7)),
          "apply range")
    for est in (ours, theirs):  # leaves are predicted from round 0 only, in both
        with pytest.raises(ValueError):
            est.apply(test, iteration_range=(2, 7))
    assert ours.classes_.tolist() == theirs.classes_.tolist() == [0, 1]
    assert ours.n_classes_ == theirs.n_classes_ == 2
    assert ours.n_features_in_ == theirs.n_features_in_ == 6
    # ntree_limit (deprecated) and iteration_range pick the same trees as in XGBoost.
    for kwargs in ({"iteration_range": (0, 5)}, {"iteration_range": (3, 9)}):
        close(ours.predict_proba(test, **kwargs), theirs.predict_proba(test, **kwargs),
              str(kwargs))
    with pytest.warns(UserWarning, match="ntree_limit is deprecated"):
        limited = ours.predict_proba(test, ntree_limit=4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        close(limited, theirs.predict_proba(test, ntree_limit=4), "ntree_limit")
    with pytest.raises(ValueError, match="Only one of `iteration_range` and `ntree_limit`"):
        ours.predict(test, ntree_limit=3, iteration_range=(0, 2))


@pytest.mark.parametrize("objective", ["multi:softprob", "multi:softmax"])
def test_multiclass(objective):
    x, y = make_data(300, kind="multi")
    ours, theirs = fit_both("XGBClassifier", x, y, n_estimators=8, objective=objective, **SAME)
    close(ours.predict_proba(x), theirs.predict_proba(x), "predict_proba")
    assert np.array_equal(ours.predict(x), theirs.predict(x))
    assert ours.predict(x).dtype == theirs.predict(x).dtype
    close(ours.predict(x, output_margin=True), theirs.predict(x, output_margin=True), "margin")
    assert np.array_equal(ours.apply(x), theirs.apply(x))
    assert ours.n_classes_ == 3
    # The trained objective is multi:*, but treering leaves the constructor parameter as
    # given (XGBoost 1.7 overwrites it; sklearn's checks forbid that).
    assert ours.objective == objective
    assert ours.get_booster().save_config() is not None


def test_evals_result_and_early_stopping():
    x, y = make_data(500, kind="binary")
    fit_args = {"eval_set": [(x[:300], y[:300]), (x[300:], y[300:])], "verbose": False}
    ours, theirs = fit_both("XGBClassifier", x[:300], y[:300], fit_args, n_estimators=60,
                            learning_rate=0.5, eval_metric=["auc", "logloss"],
                            early_stopping_rounds=4, **SAME)
    assert ours.best_iteration == theirs.best_iteration < 59
    assert ours.best_score == pytest.approx(theirs.best_score, abs=1e-9)
    assert ours.best_ntree_limit == theirs.best_ntree_limit
    assert ours.evals_result().keys() == theirs.evals_result().keys()
    for name, metrics in theirs.evals_result().items():
        for metric, values in metrics.items():
            close(ours.evals_result()[name][metric], values, f"{name}-{metric}")
    # predict() uses the best iteration, as XGBoost's does.
    close(ours.predict_proba(x[300:]), theirs.predict_proba(x[300:]), "best-iteration proba")
    # Without eval_set there is no history.
    plain = tr.XGBRegressor(n_estimators=2, **SAME).fit(x, y)
    with pytest.raises(tr.XGBoostError, match="No evaluation result"):
        plain.evals_result()
    assert plain.best_iteration == 1  # set without early stopping too, as in 1.7


def test_verbose_lines_match(capsys):
    x, y = make_data(200, kind="regression")
    outputs = []
    for est in both("XGBRegressor", n_estimators=6, **SAME):
        est.fit(x, y, eval_set=[(x, y)], verbose=2)
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] and outputs[0].count("validation_0-rmse") == 4


def test_fit_deprecated_arguments_warn_as_xgboost():
    x, y = make_data(200, kind="binary")
    messages = []
    for est in both("XGBClassifier", n_estimators=6, **SAME):
        with pytest.warns(UserWarning) as record:
            est.fit(x, y, eval_set=[(x, y)], eval_metric="error", early_stopping_rounds=2,
                    verbose=False)
        messages.append(sorted(str(w.message) for w in record
                               if "deprecated" in str(w.message)))
    assert messages[0] == messages[1] and len(messages[0]) == 2
    for est in both("XGBClassifier", n_estimators=2, eval_metric="auc", **SAME):
        with pytest.raises(ValueError, match="2 different `eval_metric` are provided"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                est.fit(x, y, eval_set=[(x, y)], eval_metric="error")


def test_regressor_weights_base_margin_eval_meta():
    x, y = make_data(300, kind="regression")
    rng = np.random.default_rng(3)
    weight = rng.uniform(0.2, 2.0, size=300)
    margin = rng.normal(size=300)
    fit_args = {"sample_weight": weight[:200], "base_margin": margin[:200],
                "eval_set": [(x[200:], y[200:])], "sample_weight_eval_set": [weight[200:]],
                "base_margin_eval_set": [margin[200:]], "verbose": False}
    ours, theirs = fit_both("XGBRegressor", x[:200], y[:200], fit_args, n_estimators=10,
                            eval_metric="mae", **SAME)
    close(ours.evals_result()["validation_0"]["mae"],
          theirs.evals_result()["validation_0"]["mae"], "weighted mae")
    close(ours.predict(x[200:], base_margin=margin[200:]),
          theirs.predict(x[200:], base_margin=margin[200:]), "base_margin predict")
    close(ours.predict(x[200:]), theirs.predict(x[200:]), "predict without margin")
    with pytest.raises(ValueError, match="sample_weight_eval_set's length"):
        ours.fit(x, y, eval_set=[(x, y)], sample_weight_eval_set=[weight, weight])
    with pytest.raises(ValueError, match="`eval_set` is not set"):
        ours.fit(x, y, base_margin_eval_set=[margin])


@pytest.mark.parametrize("importance_type",
                         ["gain", "weight", "cover", "total_gain", "total_cover", None])
def test_feature_importances(importance_type):
    x, y = make_data(300, kind="regression")
    ours, theirs = fit_both("XGBRegressor", x, y, n_estimators=8,
                            importance_type=importance_type, **SAME)
    # gain sums are float sums in a different order (docs/python.md): 1e-5 relative.
    close(ours.feature_importances_, theirs.feature_importances_, "importances", tol=1e-5)
    assert ours.feature_importances_.dtype == np.float32


def test_sparse_inputs():
    x, y = make_data(300, kind="binary", nan_fraction=0.0)
    x[np.abs(x) < 0.6] = 0.0
    for kind in (scipy.sparse.csr_matrix, scipy.sparse.csc_matrix):
        ours, theirs = fit_both("XGBClassifier", kind(x), y, n_estimators=6, **SAME)
        close(ours.predict_proba(kind(x)), theirs.predict_proba(kind(x)), kind.__name__)
        assert np.array_equal(ours.apply(kind(x)), theirs.apply(kind(x)))


def squared_log(y_true, y_pred):
    """A custom objective with 1.7's sklearn signature (y_true, y_pred) -> grad, hess."""
    y_pred[y_pred < -1 + 1e-6] = -1 + 1e-6
    grad = (np.log1p(y_pred) - np.log1p(y_true)) / (y_pred + 1)
    hess = (-np.log1p(y_pred) + np.log1p(y_true) + 1) / np.power(y_pred + 1, 2)
    return grad, hess


def logistic_obj(y_true, y_pred):
    prob = 1.0 / (1.0 + np.exp(-y_pred))
    return prob - y_true, prob * (1.0 - prob)


def test_custom_objective_and_metric():
    from sklearn.metrics import mean_absolute_error
    x, y = make_data(300, kind="regression")
    y = np.abs(y)
    fit_args = {"eval_set": [(x, y)], "verbose": False}
    ours, theirs = fit_both("XGBRegressor", x, y, fit_args, n_estimators=8,
                            objective=squared_log, eval_metric=mean_absolute_error, **SAME)
    close(ours.predict(x), theirs.predict(x), "custom objective")
    close(ours.evals_result()["validation_0"]["mean_absolute_error"],
          theirs.evals_result()["validation_0"]["mean_absolute_error"], "sklearn metric")
    assert ours.objective is squared_log
    # A classifier with a custom objective predicts margins; predict_proba as 1.7.
    xb, yb = make_data(300, kind="binary")
    ours, theirs = fit_both("XGBClassifier", xb, yb, n_estimators=6, objective=logistic_obj,
                            **SAME)
    close(ours.predict_proba(xb), theirs.predict_proba(xb), "custom classifier proba")
    assert np.array_equal(ours.predict(xb), theirs.predict(xb))


def test_continue_training_with_xgb_model():
    x, y = make_data(300, kind="regression")
    ours, theirs = fit_both("XGBRegressor", x, y, n_estimators=4, **SAME)
    more_ours = tr.XGBRegressor(n_estimators=3, **SAME).fit(x, y, xgb_model=ours)
    more_theirs = xgb.XGBRegressor(n_estimators=3, **SAME).fit(x, y, xgb_model=theirs)
    assert more_ours.get_booster().num_boosted_rounds() == 7
    close(more_ours.predict(x), more_theirs.predict(x), "continued")
    from_booster = tr.XGBRegressor(n_estimators=3, **SAME).fit(
        x, y, xgb_model=ours.get_booster())
    close(from_booster.predict(x), more_ours.predict(x), "continued from a Booster")


@pytest.mark.parametrize("objective", ["rank:pairwise", "rank:ndcg", "rank:map"])
def test_ranker_qid_and_group(objective):
    x, y = make_data(300, kind="rank")
    qid = np.repeat(np.arange(30), 10)
    fit_args = {"qid": qid[:200], "eval_set": [(x[200:], y[200:])],
                "eval_qid": [qid[200:]], "verbose": False}
    ours, theirs = fit_both("XGBRanker", x[:200], y[:200], fit_args, n_estimators=8,
                            objective=objective, eval_metric=["ndcg@5", "map"], **SAME)
    close(ours.predict(x), theirs.predict(x), "ranker predict (qid)")
    for metric in ("ndcg@5", "map"):
        close(ours.evals_result()["validation_0"][metric],
              theirs.evals_result()["validation_0"][metric], metric)
    # group sizes instead of qid give the same model and history.
    by_group = tr.XGBRanker(n_estimators=8, objective=objective, eval_metric=["ndcg@5", "map"],
                            **SAME).fit(x[:200], y[:200], group=np.full(20, 10),
                                        eval_set=[(x[200:], y[200:])],
                                        eval_group=[np.full(10, 10)])
    close(by_group.predict(x), ours.predict(x), "ranker predict (group)")
    assert by_group.evals_result() == ours.evals_result()
    with pytest.raises(ValueError, match="group or qid is required"):
        tr.XGBRanker().fit(x, y)
    with pytest.raises(ValueError, match="eval_group or eval_qid is required"):
        tr.XGBRanker().fit(x, y, qid=qid, eval_set=[(x, y)])
    with pytest.raises(ValueError, match="please use XGBRanker for ranking task"):
        tr.XGBRanker(objective="reg:squarederror")


def test_ranker_weights_refused_by_the_library():
    # XGBoost weighs query groups; treering's learner has no group weights (docs/learner.md)
    # and says so, naming the argument.
    x, y = make_data(200, kind="rank")
    qid = np.repeat(np.arange(20), 10)
    with pytest.raises(tr.XGBoostError, match="weight: 20 values, one per query group"):
        tr.XGBRanker(n_estimators=2).fit(x, y, qid=qid, sample_weight=np.ones(20))
    with pytest.raises(tr.XGBoostError, match="rows carry weights"):
        tr.XGBRanker(n_estimators=2).fit(x, y, qid=qid, sample_weight=np.ones(200))


def test_labels_must_be_0_to_n_minus_1():
    x, y = make_data(100, kind="binary")
    for est in both("XGBClassifier", n_estimators=2):
        with pytest.raises(ValueError, match=r"Invalid classes inferred from unique values "
                                             r"of `y`.  Expected: \[0 1\], got \[1 2\]"):
            est.fit(x, y + 1)
    # String labels: the same ValueError (XGBoost 1.7 fails there with an AttributeError
    # from comparing strings to integers).
    with pytest.raises(ValueError, match="Invalid classes inferred"):
        tr.XGBClassifier(n_estimators=2).fit(x, np.where(y == 1, "yes", "no"))


def test_parameters_reach_the_booster():
    x, y = make_data(200, kind="regression")
    ours, theirs = fit_both("XGBRegressor", x, y, n_estimators=5, max_depth=3,
                            learning_rate=0.2, reg_lambda=2.0, reg_alpha=0.5, gamma=0.1,
                            min_child_weight=2, max_bin=32, max_delta_step=0.7,
                            monotone_constraints="(1,0,0,0,0,0)",
                            interaction_constraints="[[0,1],[2,3,4,5]]",
                            predictor="cpu_predictor", sampling_method="uniform", **SAME)
    close(ours.predict(x), theirs.predict(x), "constrained, sampled model")
    config = json.loads(ours.get_booster().save_config())["learner"]["generic_param"]
    assert config["nthread"] == "1"  # n_jobs -> nthread
    # Row and column samples come from treering's own generator (docs/learner.md), so
    # sampled trees are not XGBoost's; random_state reaches the learner as its seed.
    sampled = [tr.XGBRegressor(n_estimators=5, subsample=0.7, colsample_bynode=0.8,
                               random_state=seed, **SAME).fit(x, y).predict(x)
               for seed in (5, 5, 6)]
    assert np.array_equal(sampled[0], sampled[1]) and not np.allclose(sampled[0], sampled[2])
    # kwargs and set_params reach the learner too.
    ours, theirs = fit_both("XGBRegressor", x, y, n_estimators=5, max_leaves=6,
                            grow_policy="lossguide", **SAME)
    close(ours.predict(x), theirs.predict(x), "lossguide")
    for est in (ours, theirs):
        est.set_params(n_estimators=4, eta=0.05)  # `eta` is not a constructor name
        est.fit(x, y)
    assert ours.get_params()["eta"] == 0.05
    close(ours.predict(x), theirs.predict(x), "eta via set_params")


def test_categorical_features_from_feature_types():
    # 1.7's own test_categorical: numpy codes marked "c" with feature_types.
    rng = np.random.default_rng(7)
    x = rng.integers(0, 4, size=(200, 2)).astype(np.float64)
    y = (x[:, 0] == 2) * 1.0 + (x[:, 1] == 1) * 0.5 + 0.1 * rng.normal(size=200)
    fit_args = {"eval_set": [(x, y)], "verbose": False}
    ours, theirs = fit_both("XGBRegressor", x, y, fit_args, n_estimators=6,
                            feature_types=["c", "c"], max_cat_to_onehot=1,
                            enable_categorical=True, **SAME)
    assert ours.get_booster().feature_types == ["c", "c"]
    close(ours.predict(x), theirs.predict(x), "categorical predict")
    close(ours.evals_result()["validation_0"]["rmse"],
          theirs.evals_result()["validation_0"]["rmse"], "categorical rmse")
    with pytest.raises(ValueError, match="categorical data is not implemented"):
        tr.XGBRegressor(enable_categorical=True, tree_method="exact").fit(x, y)


def test_fit_eval_metric_callable_old_style_and_multiclass_stopping():
    # A callable given to fit() keeps train()'s (predt, dmatrix) form, as in 1.7.
    def merror(predt, dmatrix):
        return "my_error", float(np.mean(np.argmax(predt, axis=1) != dmatrix.get_label()))
    x, y = make_data(400, kind="multi")
    fit_args = {"eval_set": [(x[300:], y[300:])], "eval_metric": merror,
                "early_stopping_rounds": 3, "verbose": False}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = fit_both("XGBClassifier", x[:300], y[:300], fit_args, n_estimators=40,
                                **SAME)
    close(ours.evals_result()["validation_0"]["my_error"],
          theirs.evals_result()["validation_0"]["my_error"], "fit-time custom metric")
    close(ours.evals_result()["validation_0"]["mlogloss"],
          theirs.evals_result()["validation_0"]["mlogloss"], "mlogloss")
    assert ours.best_iteration == theirs.best_iteration
    assert ours.best_ntree_limit == theirs.best_ntree_limit
    close(ours.predict_proba(x), theirs.predict_proba(x), "stopped multi-class probas")
