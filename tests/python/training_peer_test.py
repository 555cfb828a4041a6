"""train() and its callbacks in treering's Python package against python3-xgboost 1.7.4."""
import contextlib
import io
import os
import pickle
import tempfile
import warnings

import numpy as np

from peer_common import assert_close, load_modules, make_data, run_cases

tr, xg = load_modules()
PARAMS = {"objective": "binary:logistic", "max_depth": 3, "eta": 0.3, "nthread": 1,
          "tree_method": "hist", "seed": 0}


def split_data(seed=0, **kw):
    x, y = make_data(rows=400, seed=seed, **kw)
    return (x[:300], y[:300]), (x[300:], y[300:])


def run_train(m, params=PARAMS, rounds=8, data=None, **kw):
    (xt, yt), (xv, yv) = data or split_data()
    dtrain, dvalid = m.DMatrix(xt, label=yt), m.DMatrix(xv, label=yv)
    history = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        bst = m.train(params, dtrain, rounds, evals=[(dtrain, "train"), (dvalid, "valid")],
                      evals_result=history, **kw)
    return bst, history, out.getvalue(), dvalid


def same_history(ours, theirs, what):
    assert list(ours) == list(theirs), (what, list(ours), list(theirs))
    for data in ours:
        assert list(ours[data]) == list(theirs[data]), (what, data)
        for metric in ours[data]:
            assert_close(ours[data][metric], theirs[data][metric], f"{what} {data}-{metric}",
                         rtol=1e-5)


def test_eval_history_and_monitor():
    params = dict(PARAMS, eval_metric=["logloss", "auc", "error"])
    a, ha, outa, da = run_train(tr, params, verbose_eval=3)
    b, hb, outb, db = run_train(xg, params, verbose_eval=3)
    same_history(ha, hb, "history")
    assert outa.splitlines()[0].split("\t")[0] == "[0]"
    # Same printed rounds and metric names; scores printed with 5 decimals.
    assert [l.split("\t")[0] for l in outa.splitlines()] == \
        [l.split("\t")[0] for l in outb.splitlines()], (outa, outb)
    assert outa == outb, (outa, outb)
    assert a.best_iteration == b.best_iteration == 7
    assert_close(a.predict(da), b.predict(db), "predictions")


def test_early_stopping():
    params = dict(PARAMS, eta=0.8, max_depth=6)
    data = split_data(seed=3, nan_fraction=0.0)
    for metric in ("logloss", "auc", "error"):
        p = dict(params, eval_metric=metric)
        a, ha, _, da = run_train(tr, p, rounds=60, data=data, early_stopping_rounds=3,
                                 verbose_eval=False)
        b, hb, _, db = run_train(xg, p, rounds=60, data=data, early_stopping_rounds=3,
                                 verbose_eval=False)
        same_history(ha, hb, metric)
        assert len(ha["valid"][metric]) < 60, f"{metric}: no early stop happened"
        assert a.best_iteration == b.best_iteration, (metric, a.best_iteration,
                                                      b.best_iteration)
        assert abs(a.best_score - b.best_score) <= 1e-5 * max(1.0, abs(b.best_score))
        assert a.best_ntree_limit == b.best_ntree_limit
        assert a.num_boosted_rounds() == b.num_boosted_rounds()
        assert a.attr("best_iteration") == b.attr("best_iteration")
        rng = (0, a.best_iteration + 1)
        assert_close(a.predict(da, iteration_range=rng), b.predict(db, iteration_range=rng),
                     f"{metric} best-iteration predictions")


def test_maximize_and_callback_save_best():
    data = split_data(seed=3, nan_fraction=0.0)
    p = dict(PARAMS, eta=0.8, max_depth=6, eval_metric="error")
    a, _, _, _ = run_train(tr, p, rounds=40, data=data, early_stopping_rounds=2,
                           maximize=True, verbose_eval=False)
    b, _, _, _ = run_train(xg, p, rounds=40, data=data, early_stopping_rounds=2,
                           maximize=True, verbose_eval=False)
    assert a.best_iteration == b.best_iteration and a.best_score == b.best_score
    ca = [tr.callback.EarlyStopping(rounds=2, save_best=True, data_name="train")]
    cb = [xg.callback.EarlyStopping(rounds=2, save_best=True, data_name="train")]
    a, ha, _, _ = run_train(tr, p, rounds=40, data=data, callbacks=ca, verbose_eval=False)
    b, hb, _, _ = run_train(xg, p, rounds=40, data=data, callbacks=cb, verbose_eval=False)
    same_history(ha, hb, "save_best")
    assert a.num_boosted_rounds() == b.num_boosted_rounds() == b.best_iteration + 1


def test_custom_metric_and_feval():
    def rmse(predt, dmat):
        return "my-rmse", float(np.sqrt(np.mean((predt - dmat.get_label()) ** 2)))

    def two(predt, dmat):
        return [("m1", float(np.mean(predt))), ("m2", float(np.max(predt)))]

    for kw in ({"custom_metric": rmse}, {"feval": rmse}, {"custom_metric": two}):
        a, ha, outa, _ = run_train(tr, PARAMS, rounds=5, verbose_eval=True, **kw)
        b, hb, outb, _ = run_train(xg, PARAMS, rounds=5, verbose_eval=True, **kw)
        same_history(ha, hb, str(list(kw)))
        assert outa == outb, (outa, outb)


def test_continue_training():
    (xt, yt), _ = split_data()

    def run(m):
        d = m.DMatrix(xt, label=yt)
        first = m.train(PARAMS, d, 3, verbose_eval=False)
        more = m.train(PARAMS, d, 4, xgb_model=first, verbose_eval=False)
        return more.num_boosted_rounds(), more.predict(d), more.best_iteration
    (ra, pa, ia), (rb, pb, ib) = run(tr), run(xg)
    assert ra == rb == 7 and ia == ib
    assert_close(pa, pb, "continued training")


def test_constraints_by_feature_name():
    x, y = make_data(kind="reg")
    names = [f"n{i}" for i in range(6)]
    params = {"max_depth": 3, "nthread": 1, "monotone_constraints": {"n0": 1, "n1": -1},
              "interaction_constraints": [["n0", "n1"], ["n2", "n3", "n4", "n5"]]}

    def run(m):
        d = m.DMatrix(x, label=y, feature_names=names)
        b = m.train(params, d, 4, verbose_eval=False)
        grid = np.zeros((5, 6))
        grid[:, 0] = np.linspace(-2, 2, 5)
        return b.predict(d), b.inplace_predict(grid)
    (pa, ga), (pb, gb) = run(tr), run(xg)
    assert_close(pa, pb, "constrained model")
    # Off the training points the two differ where their histogram cut values do (a
    # library difference, docs/python.md); both must still be monotone in n0.
    assert np.all(np.diff(ga) >= 0) and np.all(np.diff(gb) >= 0), "monotone in n0"


def test_positional_arguments_as_in_xgboost_demos():
    # XGBoost 1.7's demos pass evals positionally: train(param, dtrain, rounds, watchlist).
    (xt, yt), (xv, yv) = split_data()

    def run(m):
        dtrain, dtest = m.DMatrix(xt, yt), m.DMatrix(xv, yv)
        out = io.StringIO()
        with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out):
            warnings.simplefilter("always")
            bst = m.train(PARAMS, dtrain, 3, [(dtest, "eval"), (dtrain, "train")])
            m.DMatrix(xt, yt, np.ones(len(yt)))  # weight positionally
        kinds = sorted({(w.category.__name__, str(w.message)) for w in caught})
        return out.getvalue(), kinds, bst.predict(dtest)
    (oa, wa, pa), (ob, wb, pb) = run(tr), run(xg)
    assert oa == ob, (oa, ob)
    assert wa == wb, (wa, wb)
    assert_close(pa, pb, "positional train")


def test_scheduler_and_checkpoints():
    (xt, yt), _ = split_data()
    rates = [0.3, 0.1, 0.05, 0.02, 0.01]

    def run(m, tmp):
        d = m.DMatrix(xt, label=yt)
        cbs = [m.callback.LearningRateScheduler(rates),
               m.callback.LearningRateScheduler(lambda i: rates[i]),
               m.callback.TrainingCheckPoint(tmp, name="ck", iterations=2),
               m.callback.TrainingCheckPoint(tmp, name="pk", as_pickle=True, iterations=2)]
        b = m.train(PARAMS, d, 5, callbacks=cbs, verbose_eval=False)
        return b, d, sorted(os.listdir(tmp))
    with tempfile.TemporaryDirectory() as ta, tempfile.TemporaryDirectory() as tb:
        (ba, da, fa), (bb, db, fb) = run(tr, ta), run(xg, tb)
        assert fa == fb, (fa, fb)
        assert_close(ba.predict(da), bb.predict(db), "learning-rate schedule")
        for name in fa:
            if name.endswith(".json"):
                ours = xg.Booster(model_file=os.path.join(ta, name)).predict(db)
                theirs = xg.Booster(model_file=os.path.join(tb, name)).predict(db)
                assert_close(ours, theirs, "checkpoint " + name)
            else:
                with open(os.path.join(ta, name), "rb") as src:
                    assert_close(pickle.load(src).predict(da),
                                 tr.Booster(model_file=os.path.join(ta, name.replace(
                                     "pk_", "ck_").replace(".pkl", ".json"))).predict(da),
                                 "pickled checkpoint " + name)


def test_bad_arguments():
    (xt, yt), _ = split_data()
    for m in (tr, xg):
        d = m.DMatrix(xt, label=yt)
        # XGBoost's own failure for a non-string eval name is an AttributeError.
        name_error = TypeError if m is tr else (TypeError, AttributeError)
        for call, exc in ((lambda: m.train(PARAMS, d, 2, evals=[(xt, "x")]), TypeError),
                          (lambda: m.train(PARAMS, d, 2, evals=[(d, 1)]), name_error),
                          (lambda: m.train(PARAMS, d, 2, early_stopping_rounds=2,
                                           verbose_eval=False), AssertionError),
                          (lambda: m.train(dict(PARAMS, max_depth=-4), d, 2),
                           m.core.XGBoostError)):
            try:
                call()
            except exc:
                pass
            else:
                raise AssertionError(f"{m.__name__}: expected {exc}")


run_cases([(name, fn) for name, fn in sorted(globals().items())
           if name.startswith("test_") and callable(fn)])
