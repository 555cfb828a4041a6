#!/usr/bin/python3
"""What the status reports cost a training job (docs/status.md): the same two-worker job under
treering-submit with reports off (rabit_status_interval=0), at the default heartbeat (1 s) and
at a 20 ms heartbeat (50x the default), runs interleaved, median wall time per round of each.
Usage: bench/status/report_cost.py BUILD_DIR [ROUNDS] [REPEATS]
(No peer: XGBoost's tracker has no progress reports to compare with.)"""
import os
import re
import statistics
import subprocess
import sys
import tempfile

import numpy as np


def main():
    build = os.path.abspath(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    submit = os.path.join(build, "bin", "treering-submit")
    treering = os.path.join(build, "bin", "treering")
    with tempfile.TemporaryDirectory() as d:
        rng = np.random.default_rng(1)
        x = rng.normal(size=(20000, 20))
        y = x[:, 0] + np.sin(3 * x[:, 1]) + rng.normal(scale=0.1, size=len(x))
        train = os.path.join(d, "train.libsvm")
        with open(train, "w") as f:
            for row, label in zip(x, y):
                f.write("%.5g %s\n" % (label, " ".join("%d:%.5g" % kv for kv in enumerate(row))))
        variants = {"off": "0", "1 s (default)": "1", "20 ms": "0.02"}
        times = {name: [] for name in variants}
        for _ in range(repeats):
            for name, interval in variants.items():
                proc = subprocess.run(
                    [submit, "--cluster", "local", "--num-workers", "2", "--", treering,
                     "/dev/null", "data=" + train, "eval[train]=" + train, "num_round=%d" % rounds,
                     "max_depth=6", "nthread=1", "tree_method=hist", "model_out=" + d + "/m.json",
                     "rabit_status_interval=" + interval],
                    capture_output=True, text=True, check=True)
                wall = float(re.search(r"wall time ([0-9.]+) s", proc.stderr).group(1))
                times[name].append(wall / rounds * 1000)
        base = statistics.median(times["off"])
        print("2 workers, 20000 x 20, %d rounds, %d runs each (interleaved)" % (rounds, repeats))
        for name, t in times.items():
            spread = (max(t) - min(t)) / 2
            print("  reports %-14s median %.3f ms/round (+-%.3f)  ratio to off %.3f" %
                  (name, statistics.median(t), spread, statistics.median(t) / base))


if __name__ == "__main__":
    main()
