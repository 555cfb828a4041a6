#!/usr/bin/python3
"""The `treering` command against XGBoost 1.7.4's on the model-file paths this folder owns:
dump (task=dump, text with stats), predict (task=pred on Fashion-MNIST's test set) and model
JSON load + save, with a 500-tree model (Fashion-MNIST test set, multi:softprob, 10 classes,
depth 6, 50 rounds) that python3-xgboost trains once. Runs alternate, after a warm-up of each;
prints medians and treering/XGBoost ratios (< 1: treering faster), and checks that the outputs
agree (dump byte-identical, predictions within 1e-5).

usage: bench/cli/cli_bench.py [BIN_DIR] [REPEATS]     BIN_DIR default build/bin, REPEATS 5
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FASHION = os.path.join(ROOT, "bench", "out", "fashion.test.libsvm")
CONVERTER = os.path.join(ROOT, "..", "shared", "bench", "data", "fashion_mnist_to_libsvm.py")


def timed(args, cwd):
    start = time.perf_counter()
    subprocess.run(args, cwd=cwd, check=True, capture_output=True)
    return time.perf_counter() - start


def python_load_save(model, out):
    """XGBoost's own JSON load + save, timed inside one Python process (no start-up cost)."""
    code = ("import time, xgboost as xgb\nt = time.perf_counter()\n"
            "b = xgb.Booster(model_file=%r)\nb.save_model(%r)\nprint(time.perf_counter() - t)"
            % (model, out))
    return float(subprocess.run(["/usr/bin/python3", "-c", code], check=True,
                                capture_output=True, text=True).stdout)


def train_model(d):
    import xgboost as xgb
    dm = xgb.DMatrix(FASHION + "?format=libsvm")
    params = {"objective": "multi:softprob", "num_class": 10, "max_depth": 6, "eta": 0.3,
              "tree_method": "hist", "nthread": 2}
    path = os.path.join(d, "big.json")
    xgb.train(params, dm, 50).save_model(path)
    return path


def compare(name, ours, theirs, repeats):
    """ours/theirs: callables returning seconds; alternates after one warm-up each."""
    ours(), theirs()
    a, b = [], []
    for _ in range(repeats):
        a.append(ours())
        b.append(theirs())
    ma, mb = statistics.median(a), statistics.median(b)
    print("| %s | %.3f | %.3f | %.2f |" % (name, ma, mb, ma / mb))


def main():
    bin_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "bin")
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    treering = os.path.abspath(os.path.join(bin_dir, "treering"))
    if not os.path.exists(FASHION):
        subprocess.run(["/usr/bin/python3", CONVERTER, os.path.dirname(FASHION)], check=True)
    d = tempfile.mkdtemp(prefix="cli_bench_")
    try:
        model = train_model(d)
        tiny = os.path.join(d, "tiny.libsvm")
        with open(tiny, "w") as f:
            f.write("1 0:1\n0 783:2\n")
        dump = ["task=dump", "model_in=" + model, "dump_stats=1"]
        pred = ["task=pred", "model_in=" + model, "test:data=" + FASHION + "?format=libsvm",
                "nthread=2"]
        print("| task | treering (s) | XGBoost 1.7.4 (s) | ratio |\n|---|---|---|---|")
        compare("dump, 500 trees, text with stats",
                lambda: timed([treering, "/dev/null", "name_dump=a.txt"] + dump, d),
                lambda: timed(["xgboost", "/dev/null", "name_dump=b.txt"] + dump, d), repeats)
        compare("pred, 10000 rows x 10 classes",
                lambda: timed([treering, "/dev/null", "name_pred=a.pred"] + pred, d),
                lambda: timed(["xgboost", "/dev/null", "name_pred=b.pred"] + pred, d), repeats)
        compare("model JSON load + save (XGBoost: in-process)",
                lambda: timed([treering, "/dev/null", "data=" + tiny, "num_round=0",
                               "model_in=" + model, "model_out=a.json", "objective=multi:softprob",
                               "num_class=10", "verbosity=0"], d),
                lambda: python_load_save(model, os.path.join(d, "b.json")), repeats)
        check(d)
    finally:
        shutil.rmtree(d, ignore_errors=True)


def check(d):
    with open(os.path.join(d, "a.txt"), "rb") as a, open(os.path.join(d, "b.txt"), "rb") as b:
        assert a.read() == b.read(), "dumps differ"
    with open(os.path.join(d, "a.pred")) as a, open(os.path.join(d, "b.pred")) as b:
        diff = max(abs(float(x) - float(y)) for x, y in zip(a, b))
    assert diff <= 1e-5, "predictions differ by %g" % diff
    print("dumps byte-identical; predictions max abs diff %g" % diff)


if __name__ == "__main__":
    main()
