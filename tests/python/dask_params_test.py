"""treering.dask's estimators are XGBModel subclasses (as xgboost.dask's DaskScikitLearnBase):
the constructor parameters, get_params, set_params and clone are the sklearn estimator's, and
match xgboost.dask 1.7.4's; the booster parameters they train with are the sklearn names."""
import pytest

pytest.importorskip("sklearn", reason="scikit-learn (python3-sklearn)")
pytest.importorskip("dask", reason="Dask (python3-dask)")
import sklearn.base  # noqa: E402

import treering.dask as tdask  # noqa: E402
from treering.sklearn import XGBModel  # noqa: E402

NAMES = ["DaskXGBRegressor", "DaskXGBClassifier", "DaskXGBRFRegressor", "DaskXGBRFClassifier",
         "DaskXGBRanker"]


@pytest.mark.parametrize("name", NAMES)
def test_estimators_reuse_xgbmodel(name):
    klass = getattr(tdask, name)
    assert issubclass(klass, XGBModel)
    from treering import dask_sklearn  # pylint: disable=import-outside-toplevel
    assert "__init__" not in vars(dask_sklearn._DaskModel)  # pylint: disable=protected-access
    est = klass(n_estimators=3, max_depth=2, learning_rate=0.3, my_param=1)
    params = est.get_params()
    assert params["max_depth"] == 2 and params["my_param"] == 1
    copy = sklearn.base.clone(est)
    assert copy.get_params() == params
    est.set_params(max_depth=4, other=5)
    assert est.max_depth == 4 and est.get_params()["other"] == 5
    booster = est.get_xgb_params()
    assert booster["max_depth"] == 4 and booster["learning_rate"] == 0.3
    assert "n_estimators" not in booster and "missing" not in booster


@pytest.mark.parametrize("name", NAMES[:4])
def test_params_match_xgboost_dask(name):
    xdask = pytest.importorskip("xgboost.dask", reason="python3-xgboost 1.7.4 (the peer)")
    ours = getattr(tdask, name)(n_estimators=3, max_depth=2).get_params()
    theirs = getattr(xdask, name)(n_estimators=3, max_depth=2).get_params()
    assert set(ours) == set(theirs)
    # 1.7 writes learning_rate=1 for the forests, treering 1.0: equal values
    assert all(ours[k] == theirs[k] or (ours[k] != ours[k] and theirs[k] != theirs[k])
               for k in ours)


def test_forest_trains_one_round_of_n_trees():
    est = tdask.DaskXGBRFRegressor(n_estimators=7)
    assert est.get_num_boosting_rounds() == 1
    assert est.get_xgb_params()["num_parallel_tree"] == 7


def test_ranker_default_objective_and_custom_objective_refused():
    assert tdask.DaskXGBRanker().get_params()["objective"] == "rank:pairwise"
    with pytest.raises(ValueError, match="Custom objective"):
        tdask.DaskXGBRanker(objective=lambda p, d: (p, p))
