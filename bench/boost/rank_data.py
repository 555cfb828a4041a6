#!/usr/bin/python3
"""Writes a learning-to-rank data set shaped like MSLR-WEB (LibSVM with qid:, sorted by query):
query groups of 10..200 documents, NFEAT dense features (a few missing), graded relevance 0..4
from a hidden per-query linear score plus noise; about 1 query in 20 has no relevant document.

usage: rank_data.py OUT.libsvm QUERIES [SEED] [NFEAT] [--group]
With --group the qid: column is left out and OUT.libsvm.group gets one group size per line
(XGBoost's convention). Generated data is never committed (bench/boost/README-style rule)."""
import sys

import numpy as np


def generate(path, queries, seed=7, nfeat=50, group_file=False, min_docs=10, max_docs=200):
    rng = np.random.default_rng(seed)
    w = rng.normal(size=nfeat)
    sizes = []
    with open(path, "w") as out:
        for q in range(queries):
            n = int(rng.integers(min_docs, max_docs + 1))
            sizes.append(n)
            x = rng.normal(size=(n, nfeat)).astype(np.float32)
            x = np.round(x, 3)
            score = x @ w + rng.normal(scale=2.0, size=n) + rng.normal(scale=1.0)
            cuts = np.quantile(score, [0.5, 0.75, 0.9, 0.97])
            rel = np.searchsorted(cuts, score)
            if rng.random() < 0.05:
                rel[:] = 0
            missing = rng.random(size=(n, nfeat)) < 0.02
            for i in range(n):
                cols = " ".join("%d:%g" % (j, x[i, j]) for j in range(nfeat) if not missing[i, j])
                qid = "" if group_file else " qid:%d" % (q + 1)
                out.write("%d%s %s\n" % (rel[i], qid, cols))
    if group_file:
        with open(path + ".group", "w") as g:
            g.write("".join("%d\n" % s for s in sizes))
    return sizes


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--group"]
    generate(args[0], int(args[1]), int(args[2]) if len(args) > 2 else 7,
             int(args[3]) if len(args) > 3 else 50, "--group" in sys.argv)
