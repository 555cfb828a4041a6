#!/usr/bin/python3
"""The peer: XGBoost 1.7's own CLI trained as 2 workers under treering-submit (its legacy
rabit protocol; row split) and treering as 2 workers on the same config file and data reach
the same test AUC within 0.002; both models are scored by python3-xgboost on the whole test
file and the AUC is computed here (so neither program's metric aggregation is trusted)."""
import os

import distlib
from distlib import t

CONF = """booster = gbtree
objective = binary:logistic
tree_method = hist
max_bin = 256
max_depth = 6
eta = 0.3
num_round = 20
nthread = 1
eval_metric = auc
data = "{train}?format=libsvm"
eval[test] = "{test}?format=libsvm"
"""


def exact_auc(preds, labels):
    """Exact ROC AUC with ties (the trapezoid under each group of equal predictions)."""
    import numpy as np
    order = np.argsort(-np.asarray(preds, dtype=np.float64), kind="stable")
    p, y = np.asarray(preds)[order], np.asarray(labels)[order]
    tp = fp = area = 0.0
    i = 0
    while i < len(p):
        j = i
        while j < len(p) and p[j] == p[i]:
            j += 1
        gtp = float(y[i:j].sum())
        gfp = float(j - i) - gtp
        area += gfp * (2 * tp + gtp) / 2
        tp += gtp
        fp += gfp
        i = j
    return area / (tp * fp)


def test_xgboost_and_treering_distributed_agree_on_auc():
    import shutil
    import xgboost as xgb
    if shutil.which("xgboost") is None:
        t.skip("the xgboost CLI is not installed")
    with t.TempDir() as d:
        train, test = distlib.write_data(d, "binary", 40000, test_rows=40000)
        conf = os.path.join(d, "train.conf")
        with open(conf, "w") as f:
            f.write(CONF.format(train=train, test=test))
        xgb_model, our_model = os.path.join(d, "xgb.json"), os.path.join(d, "treering.json")
        distlib.submit(2, ["xgboost", conf, "model_out=" + xgb_model], cwd=d)
        distlib.submit(2, [t.treering_bin(), conf, "model_out=" + our_model], cwd=d)
        dtest = xgb.DMatrix(test + "?format=libsvm")
        labels = dtest.get_label()
        aucs = [exact_auc(xgb.Booster(model_file=m).predict(dtest), labels)
                for m in (xgb_model, our_model)]
        print("test AUC: xgboost (2 workers) %.6f, treering (2 workers) %.6f" % tuple(aucs))
        assert abs(aucs[0] - aucs[1]) <= 0.002, "AUC differs by %g" % abs(aucs[0] - aucs[1])


if __name__ == "__main__":
    t.need_xgboost_python()
    if not os.path.exists(distlib.submit_bin()):
        print("SKIP: treering-submit is not built")
        raise SystemExit(t.SKIP)
    t.main([test_xgboost_and_treering_distributed_agree_on_auc])
