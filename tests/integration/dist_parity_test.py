#!/usr/bin/python3
"""One config, trained by 1 process (no launcher) and by 1, 2, 3, 4 and 7 workers under
treering-submit (socket engine) and 2 and 4 under mpirun (MPI engine), must give the same model
file, byte for byte (issue 34, docs/distributed.md "When do trees depend on the number of
workers?"):

* few distinct values per feature (every rank's sketch is exact) and continuous data of 3000
  rows at the default max_bin;
* continuous data where every rank prunes its own sketch (4000 rows, max_bin=32: 256 summary
  entries, more distinct values than that on every rank even at 7 workers), so only the exact
  global prune gives the single-process cuts; binary with subsample and colsample_bynode,
  softprob with colsample_bytree, regression with subsample, reg:absoluteerror (global leaf
  quantiles and base score) and reg:quantileerror with two alphas, both with subsample. Without the global prune, the row sampling by
  global row number or the global leaf quantiles, these models differ.
* The printed test metrics equal the single-process values to 1e-12 (sums of doubles over
  ranks: the order of additions changes the last bits only).
* In both cases the MPI engine's model equals the socket engine's for the same rank count."""
import os

import distlib
from distlib import t

CASES = {  # name: (objective keys, metric checked)
    "binary": (["objective=binary:logistic", "eval_metric=error", "eval_metric=auc"], "auc"),
    "multi": (["objective=multi:softmax", "num_class=4", "eval_metric=merror"], "merror"),
    "reg": (["objective=reg:squarederror", "eval_metric=rmse"], "rmse"),
    "ae": (["objective=reg:absoluteerror", "eval_metric=mae"], "mae"),
    "quantile": (["objective=reg:quantileerror", "quantile_alpha=[0.2,0.7]",
                  "eval_metric=quantile"], "quantile"),
}
SAMPLING = {"binary": ["subsample=0.7", "colsample_bynode=0.8"],
            "multi": ["objective=multi:softprob", "colsample_bytree=0.7"],
            "reg": ["subsample=0.6"], "ae": ["subsample=0.8"], "quantile": ["subsample=0.8"]}
LAUNCHES = [("submit", 1), ("submit", 2), ("submit", 3), ("submit", 4), ("submit", 7)]
MPI_LAUNCHES = [("mpirun", 2), ("mpirun", 4)]


def train(d, how, n, train_path, test_path, keys, tag, rounds, depth):
    model = os.path.join(d, "%s.%s%d.json" % (tag, how, n))
    proc = distlib.launch(how, n, [t.treering_bin(), "/dev/null", "data=" + train_path,
                                   "eval[test]=" + test_path, "num_round=%d" % rounds,
                                   "max_depth=%d" % depth, "eta=0.3", "nthread=1",
                                   "tree_method=hist",
                                   "model_out=" + model] + keys)
    lines = distlib.metric_lines(proc.stdout)
    assert sorted(lines) == list(range(rounds)), "%s %d: metric lines\n%s" % (how, n, proc.stdout)
    with open(model, "rb") as f:
        return lines[rounds - 1], f.read()


def launches():
    return LAUNCHES + (MPI_LAUNCHES if distlib.have_mpirun() else [])


def check_case(name, rows, decimals=None, rounds=6, depth=4, extra=()):
    keys, _ = CASES[name]
    keys = keys + list(extra)
    with t.TempDir() as d:
        tag = "%s-%s%d" % (name, "round" if decimals is not None else "cont", rows)
        train_path, test_path = distlib.write_data(d, tag, rows, decimals=decimals)
        args = (train_path, test_path, keys, tag, rounds, depth)
        ref_metrics, ref_model = train(d, "single", 1, *args)
        socket_models = {}
        for how, n in launches():
            metrics, model = train(d, how, n, *args)
            where = "%s %s N=%d %s" % (tag, how, n, " ".join(extra))
            if how == "submit":
                socket_models[n] = model
            else:
                assert model == socket_models[n], where + ": MPI and socket engines' models differ"
            assert model == ref_model, where + ": model differs from the single-process one"
            for k, v in ref_metrics.items():
                assert abs(metrics[k] - v) <= 1e-12 * max(1.0, abs(v)), \
                    "%s: %s %r vs single %r" % (where, k, metrics[k], v)


def test_identical_models_while_rank_sketches_are_exact():
    check_case("binary", rows=3000, decimals=1)
    for name in CASES:
        check_case(name, rows=3000)


def test_identical_models_when_every_rank_prunes_its_sketch():
    for name in CASES:
        check_case(name, rows=4000, extra=["max_bin=32"] + SAMPLING[name])


if __name__ == "__main__":
    t.need_xgboost_python()  # numpy generates the data
    if not os.path.exists(distlib.submit_bin()):
        print("SKIP: treering-submit is not built")
        raise SystemExit(t.SKIP)
    t.main([test_identical_models_while_rank_sketches_are_exact,
            test_identical_models_when_every_rank_prunes_its_sketch])
