"""Trains XGBoost 1.7 (the reference peer) for the learner comparison tests.

usage: xgb_reference.py DIR ROUNDS key=value ...
Reads DIR/train.libsvm and DIR/test.libsvm (0-based indices), trains with tree_method=hist and
nthread=1, writes DIR/xgb-model.json and DIR/xgb-margin.txt (test margins, one per line,
row-major over classes, 9 significant digits).
"""
import sys

import numpy as np
import xgboost as xgb


def main():
    work, rounds = sys.argv[1], int(sys.argv[2])
    params = {"tree_method": "hist", "nthread": 1}
    for pair in sys.argv[3:]:
        key, value = pair.split("=", 1)
        params[key] = value
    train = xgb.DMatrix(work + "/train.libsvm?format=libsvm")
    test = xgb.DMatrix(work + "/test.libsvm?format=libsvm")
    booster = xgb.train(params, train, num_boost_round=rounds)
    booster.save_model(work + "/xgb-model.json")
    margin = np.asarray(booster.predict(test, output_margin=True), dtype=np.float32).reshape(-1)
    np.savetxt(work + "/xgb-margin.txt", margin, fmt="%.9g")


if __name__ == "__main__":
    main()
