"""Trains XGBoost 1.7 (the reference peer) for the learner comparison tests.

usage: xgb_reference.py DIR ROUNDS key=value ...
Reads DIR/train.libsvm and DIR/test.libsvm (0-based indices), trains with tree_method=hist and
nthread=1, writes DIR/xgb-model.json, DIR/xgb-margin.txt (test margins, one per line,
row-major over classes, 9 significant digits) and DIR/xgb-eval.txt (XGBoost's metrics on the
test set after the last round, "name value" per line, in its printing order). Repeat
eval_metric=... to ask for several metrics, as in XGBoost's CLI.
"""
import subprocess
import sys

import numpy as np
import xgboost as xgb


def main():
    work, rounds = sys.argv[1], int(sys.argv[2])
    params = {"tree_method": "hist", "nthread": 1}
    metrics = []
    for pair in sys.argv[3:]:
        key, value = pair.split("=", 1)
        if key == "eval_metric":
            metrics.append(value)  # python-xgboost keeps several metrics only as a list
        else:
            params[key] = value
    if metrics:
        params["eval_metric"] = metrics
    train = xgb.DMatrix(work + "/train.libsvm?format=libsvm")
    test = xgb.DMatrix(work + "/test.libsvm?format=libsvm")
    booster = xgb.train(params, train, num_boost_round=rounds)
    booster.save_model(work + "/xgb-model.json")
    margin = np.asarray(booster.predict(test, output_margin=True), dtype=np.float32).reshape(-1)
    np.savetxt(work + "/xgb-margin.txt", margin, fmt="%.9g")
    write_cli_eval(work, rounds, sys.argv[3:])


def write_cli_eval(work, rounds, pairs):
    """Metrics as XGBoost's CLI prints them (python-xgboost 1.7.4 mislabels several
    eval_metric values in Booster.eval, the CLI keeps them all and in order)."""
    conf = work + "/xgb-eval.conf"
    with open(conf, "w") as out:
        for line in ["tree_method=hist", "nthread=1", "num_round=%d" % rounds] + pairs + [
                "data=%s/train.libsvm?format=libsvm" % work,
                "eval[test]=%s/test.libsvm?format=libsvm" % work,
                "model_out=%s/xgb-cli.model" % work]:
            key, value = line.split("=", 1)
            out.write('%s = "%s"\n' % (key, value))
    log = subprocess.run(["xgboost", conf], capture_output=True, text=True, check=True).stderr
    last = [line for line in log.splitlines() if "\ttest-" in line][-1]
    # "[04:37:00] [4]\ttest-auc:0.93\ttest-logloss:0.31" -> "test-auc 0.93" per metric
    with open(work + "/xgb-eval.txt", "w") as out:
        for item in last.split("\t")[1:]:
            name, value = item.split(":")
            out.write("%s %s\n" % (name, value))


if __name__ == "__main__":
    main()
