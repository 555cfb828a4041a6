#!/usr/bin/python3
"""Exact test AUC of XGBoost-1.7 JSON models (treering's or XGBoost's), scored by
python3-xgboost on one LibSVM file, so every program's model is measured the same way.

usage: model_auc.py TEST.libsvm MODEL.json [MODEL.json ...]   -> one "MODEL auc" line each"""
import sys

import numpy as np
import xgboost as xgb


def exact_auc(preds, labels):
    """Mann-Whitney form of the ROC AUC; tied predictions share their mean rank (= the
    trapezoid rule under each tie group)."""
    values, inverse = np.unique(preds, return_inverse=True)
    counts = np.bincount(inverse)
    mean_rank = np.cumsum(counts) - (counts - 1) / 2.0  # 1-based average rank per value
    ranks = mean_rank[inverse]
    pos = labels > 0.5
    n_pos, n_neg = pos.sum(), (~pos).sum()
    return (ranks[pos].sum() - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg)


def main():
    dtest = xgb.DMatrix(sys.argv[1] + "?format=libsvm")
    labels = dtest.get_label()
    for path in sys.argv[2:]:
        preds = xgb.Booster(model_file=path).predict(dtest)
        print("%s %.6f" % (path, exact_auc(preds.astype(np.float64), labels)))


if __name__ == "__main__":
    main()
