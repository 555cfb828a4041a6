"""treering.cv against python3-xgboost 1.7.4's xgboost.cv (pandas absent: dict results)."""
import contextlib
import io

import numpy as np

from peer_common import assert_close, load_modules, make_data, run_cases

tr, xg = load_modules()
PARAMS = {"objective": "binary:logistic", "max_depth": 3, "eta": 0.3, "nthread": 1}


def run_cv(m, **kw):
    x, y = make_data(rows=300, nan_fraction=0.0)
    data = m.DMatrix(x, label=y, qid=kw.pop("qid", None))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        res = m.cv(kw.pop("params", PARAMS), data, as_pandas=False, **kw)
    return res, out.getvalue()


def same(ours, theirs, what):
    (ra, oa), (rb, ob) = ours, theirs
    assert list(ra) == list(rb), (what, list(ra), list(rb))
    for key in ra:
        assert_close(ra[key], rb[key], f"{what} {key}", rtol=1e-5, atol=1e-7)
    assert oa == ob, (what, oa, ob)


def test_plain_and_metrics():
    for kw in ({"num_boost_round": 5, "nfold": 3, "verbose_eval": True},
               {"num_boost_round": 4, "nfold": 4, "metrics": ["auc", "error"], "seed": 7,
                "verbose_eval": 2, "show_stdv": False},
               {"num_boost_round": 3, "params": dict(PARAMS, eval_metric="logloss"),
                "shuffle": False}):
        same(run_cv(tr, **dict(kw)), run_cv(xg, **dict(kw)), str(kw))


def test_early_stopping():
    kw = {"num_boost_round": 60, "nfold": 3, "early_stopping_rounds": 3,
          "params": dict(PARAMS, eta=0.9, max_depth=6), "metrics": "logloss"}
    ours, theirs = run_cv(tr, **dict(kw)), run_cv(xg, **dict(kw))
    same(ours, theirs, "early stopping")
    assert len(ours[0]["test-logloss-mean"]) < 60


def test_folds_custom_metric_and_groups():
    folds = [(np.arange(0, 200), np.arange(200, 300)), (np.arange(100, 300), np.arange(0, 100))]

    def metric(predt, dmat):
        return "mae", float(np.mean(np.abs(predt - dmat.get_label())))
    kw = {"num_boost_round": 3, "folds": folds, "custom_metric": metric}
    same(run_cv(tr, **dict(kw)), run_cv(xg, **dict(kw)), "folds + custom metric")
    kw = {"num_boost_round": 3, "nfold": 3, "qid": np.repeat(np.arange(10), 30),
          "params": {"objective": "rank:pairwise", "eval_metric": "ndcg@5", "nthread": 1}}
    same(run_cv(tr, **dict(kw)), run_cv(xg, **dict(kw)), "query groups")


run_cases([(name, fn) for name, fn in sorted(globals().items())
           if name.startswith("test_") and callable(fn)])
