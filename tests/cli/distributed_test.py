#!/usr/bin/python3
"""Two workers under treering-submit: rank 0 alone prints the metric lines (once each, via the
tracker) and writes the model, which XGBoost 1.7 loads and predicts as treering does and which
is byte-identical to the model one process trains with the same keys."""
import os

import cli_testlib as t
from interop_test import make_data, max_diff, treering_predict


def test_two_workers_train_one_model():
    import xgboost as xgb
    submit = os.path.join(os.path.dirname(t.treering_bin()), "treering-submit")
    if not os.path.exists(submit):
        t.skip("treering-submit is not built")
    with t.TempDir() as d:
        train, test = make_data(d, "binary", rows=3000)
        keys = ["data=" + train, "eval[test]=" + test, "objective=binary:logistic",
                "max_depth=4", "num_round=5", "nthread=1", "eval_metric=auc",
                "tree_method=hist"]  # unset: exact in one process, approx (as hist) on two
        dist = os.path.join(d, "dist.json")
        proc = t.run([submit, "--cluster", "local", "--num-workers", "2", "--",
                      t.treering_bin(), "/dev/null", "model_out=" + dist] + keys, cwd=d)
        metric_lines = [l for l in proc.stdout.splitlines() if l.startswith("[")]
        assert [l.split("\t")[0] for l in metric_lines] == ["[%d]" % i for i in range(5)], \
            proc.stdout
        assert [f for f in os.listdir(d) if f.endswith(".json")] == ["dist.json"]
        booster = xgb.Booster(model_file=dist)
        diff = max_diff(treering_predict(d, dist, test),
                        booster.predict(xgb.DMatrix(test + "?format=libsvm")))
        assert diff <= 1e-5, "max abs diff %g" % diff
        single = os.path.join(d, "single.json")
        t.run([t.treering_bin(), "/dev/null", "model_out=" + single] + keys, cwd=d)
        # 2000 training rows: each rank's sketch holds every distinct value of its shard, so
        # the merged cuts are the single-process ones and the model files must be byte-identical
        # (docs/distributed.md; tests/integration/dist_parity_test.py checks more rank counts).
        with open(dist, "rb") as a, open(single, "rb") as b:
            assert a.read() == b.read(), \
                "the 2-worker model %s differs from the single-process model %s" % (dist, single)
        print("2-worker model equals the single-process model")


if __name__ == "__main__":
    t.need_xgboost_python()
    t.main([test_two_workers_train_one_model])
