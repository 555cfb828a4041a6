"""The categorical benchmark set: 8 columns, feature_types c,c,c,c,q,q,q,q; categorical columns
with 3 (one-hot), 20, 100 and 1000 categories (partition splits), 5 % missing; a regression
label. Written as LibSVM, never committed.

usage: categorical_data.py PATH ROWS
"""
import sys

import numpy as np

path, rows = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(7)
x = np.empty((rows, 8))
for j, k in enumerate((3, 20, 100, 1000)):
    x[:, j] = rng.integers(0, k, rows)
x[:, 4:] = np.round(rng.normal(size=(rows, 4)) * 64) / 64
x[rng.random((rows, 8)) < 0.05] = np.nan
w = [rng.normal(size=k) for k in (3, 20, 100, 1000)]
z = sum(np.where(np.isnan(x[:, j]), 0.0, w[j][np.nan_to_num(x[:, j]).astype(int)])
        for j in range(4)) + np.nan_to_num(x[:, 4:]) @ np.array([0.5, -0.3, 0.2, 0.1])
y = np.round((z + rng.normal(scale=0.3, size=rows)) * 64) / 64
with open(path, "w") as f:
    for row, label in zip(x, y):
        f.write("%g" % label + "".join(" %d:%g" % (j, v) for j, v in enumerate(row)
                                       if not np.isnan(v)) + "\n")
