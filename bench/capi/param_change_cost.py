"""What a parameter change between rounds costs through the C API (docs/c-api.md, "Booster"):
rounds with no change, with eta set before every round (taken in place, as a learning-rate
schedule does) and with reg_lambda set before every round (the learner is rebuilt from its
model and the next round re-makes the quantile cuts). usage: param_change_cost.py BUILD_DIR
[ROWS]"""
import os
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tests", "capi"))
import capi_testlib as t  # noqa: E402

ROUNDS = 10


def main():
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 200000
    rng = np.random.default_rng(1)
    x = rng.random((rows, 20), dtype=np.float32)
    y = (x[:, 0] + x[:, 1] > 1).astype(int)
    path = os.path.join(tempfile.mkdtemp(), "d.libsvm")
    with open(path, "w") as f:
        for r in range(rows):
            f.write("%d %s\n" % (y[r], " ".join("%d:%.4f" % (i, v) for i, v in enumerate(x[r]))))
    lib = t.Lib(t.treering_lib_path())
    d = lib.dmatrix(path)
    for change in (None, "eta", "reg_lambda"):
        b = lib.booster([d], [("objective", "binary:logistic"), ("max_depth", "6"),
                              ("nthread", "2")])
        lib.update(b, 0, d)  # the cuts are made once before timing
        start = time.perf_counter()
        for i in range(1, ROUNDS + 1):
            if change:
                lib.call("XGBoosterSetParam", b, change.encode(), str(0.3 + i * 1e-3).encode())
            lib.update(b, i, d)
        per_round = (time.perf_counter() - start) / ROUNDS
        print("%-12s %8.1f ms per round (%d rows)" % (change or "no change", per_round * 1e3,
                                                     rows))
        lib.free(b)


if __name__ == "__main__":
    main()
