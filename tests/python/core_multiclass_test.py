"""A multi-class objective written in Python (XGBoost's custom_softmax.py set-up), against
python3-xgboost 1.7.4.

XGBoost 1.7 trains num_class trees per round on the caller's gradients whatever the objective,
reads num_class without an objective as multi:softmax, and turns a one-output objective with
num_class > 1 into multi:softmax when it restores a booster (copy, pickle, model file).
"""
import pickle

import numpy as np
import pytest

xgb = pytest.importorskip("xgboost", reason="python3-xgboost 1.7 (the peer) is not installed")
import treering as tr  # noqa: E402

CLASSES, ROWS = 4, 300


def data():
    rng = np.random.default_rng(1994)
    x = rng.normal(size=(ROWS, 6))
    y = (np.digitize(x[:, 0] + 0.5 * x[:, 1], [-0.8, 0, 0.8])).astype(float)
    return x, y


def softprob_gradients(margins, dtrain):
    """XGBoost's custom_softmax.py objective, vectorised (same float64 arithmetic)."""
    labels = dtrain.get_label().astype(int)
    e = np.exp(margins - margins.max(axis=1, keepdims=True))
    p = e / e.sum(axis=1, keepdims=True)
    grad = p.copy()
    grad[np.arange(len(labels)), labels] -= 1.0
    hess = np.maximum(2.0 * p * (1.0 - p), 1e-6)
    return grad.reshape(-1, 1), hess.reshape(-1, 1)


def train_both(params, rounds=4):
    x, y = data()
    out = {}
    for mod in (tr, xgb):
        booster = mod.train(params, mod.DMatrix(x, label=y), rounds, obj=softprob_gradients)
        out[mod] = booster
    return x, out


@pytest.mark.parametrize("objective", [None, "reg:squarederror"])
def test_python_softmax_objective_trains_xgboosts_model(objective):
    params = {"num_class": CLASSES, "disable_default_eval_metric": True, "tree_method": "hist"}
    if objective:
        params["objective"] = objective
    x, boosters = train_both(params)
    ours, theirs = boosters[tr], boosters[xgb]
    margin = {m: b.predict(m.DMatrix(x), output_margin=True) for m, b in boosters.items()}
    assert margin[tr].shape == (ROWS, CLASSES)
    np.testing.assert_allclose(margin[tr], margin[xgb], rtol=1e-6, atol=1e-6)
    # train() returns a restored copy: both now predict class indices (multi:softmax).
    predicted = {m: b.predict(m.DMatrix(x)) for m, b in boosters.items()}
    assert predicted[tr].shape == (ROWS,)
    np.testing.assert_array_equal(predicted[tr], predicted[xgb])
    np.testing.assert_array_equal(predicted[tr], margin[tr].argmax(axis=1))
    # Each loads the other's model and predicts the same.
    from_ours = xgb.Booster(model_file=ours.save_raw("json"))
    np.testing.assert_allclose(from_ours.predict(xgb.DMatrix(x), output_margin=True),
                               margin[xgb], rtol=1e-6, atol=1e-6)
    from_theirs = tr.Booster(model_file=theirs.save_raw("json"))
    np.testing.assert_array_equal(from_theirs.predict(tr.DMatrix(x)), predicted[xgb])


def test_one_output_objective_keeps_k_outputs_until_restored():
    x, y = data()
    rng = np.random.default_rng(5)
    grad = rng.normal(size=ROWS * CLASSES).astype(np.float32)
    hess = (np.abs(rng.normal(size=ROWS * CLASSES)) + 0.5).astype(np.float32)
    results = {}
    for mod in (tr, xgb):
        dtrain = mod.DMatrix(x, label=y)
        booster = mod.Booster({"num_class": CLASSES, "objective": "reg:squarederror",
                               "tree_method": "hist", "disable_default_eval_metric": 1},
                              [dtrain])
        for _ in range(2):
            booster.boost(dtrain, grad, hess)
        restored = pickle.loads(pickle.dumps(booster))
        results[mod] = (booster.predict(dtrain), restored.predict(mod.DMatrix(x)))
    assert results[tr][0].shape == (ROWS, CLASSES)  # identity transform, K values per row
    np.testing.assert_allclose(results[tr][0], results[xgb][0], rtol=1e-6, atol=1e-6)
    assert results[tr][1].shape == (ROWS,)  # restored as multi:softmax
    np.testing.assert_array_equal(results[tr][1], results[xgb][1])


def test_builtin_gradients_refused_for_one_output_objective_with_classes():
    x, y = data()
    with pytest.raises(tr.XGBoostError, match="objective reg:squarederror has one output per "
                       "row, but num_class = 4"):
        tr.train({"num_class": CLASSES, "objective": "reg:squarederror"},
                 tr.DMatrix(x, label=y), 1)
    # XGBoost fails there too (on the label count).
    with pytest.raises(xgb.core.XGBoostError):
        xgb.train({"num_class": CLASSES, "objective": "reg:squarederror"},
                  xgb.DMatrix(x, label=y), 1)


def test_num_class_without_objective_is_softmax():
    x, y = data()
    preds = {}
    for mod in (tr, xgb):
        booster = mod.train({"num_class": CLASSES, "tree_method": "hist"},
                            mod.DMatrix(x, label=y), 3)
        assert '"multi:softmax"' in booster.save_config()
        preds[mod] = booster.predict(mod.DMatrix(x))
    np.testing.assert_array_equal(preds[tr], preds[xgb])
