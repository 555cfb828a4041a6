"""Training through the C API vs the `treering` CLI on the same data and params (issue 30:
within 2 %). Runs each alternately REPEAT times and prints the medians of the training time:
the CLI's as its process's wall time (load, train, save), the C API's as the same steps
through ctypes in this process (XGDMatrixCreateFromFile, the UpdateOneIter loop, the save). usage: train_vs_cli.py BUILD_DIR LIBSVM [ROUNDS] [REPEAT]"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tests", "capi"))
import capi_testlib as t  # noqa: E402

PARAMS = [("objective", "binary:logistic"), ("max_depth", "6"), ("nthread", "2"),
          ("tree_method", "hist")]


def cli_seconds(data, rounds, out):
    cli = os.path.join(t.build_dir(), "bin", "treering")
    keys = ["%s=%s" % kv for kv in PARAMS]
    start = time.perf_counter()
    subprocess.run([cli, "/dev/null", "data=" + data, "num_round=%d" % rounds, "model_out=" + out,
                    "verbosity=0"] + keys, check=True, capture_output=True)
    return time.perf_counter() - start


def capi_seconds(lib, data, rounds, out):
    start = time.perf_counter()
    d = lib.dmatrix(data)
    b = lib.booster([d], PARAMS)
    for i in range(rounds):
        lib.update(b, i, d)
    lib.save(b, out)
    seconds = time.perf_counter() - start
    lib.free(b)
    lib.free_dmatrix(d)
    return seconds


def main():
    data = sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    repeat = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    lib = t.Lib(t.treering_lib_path())
    tmp = tempfile.mkdtemp()
    cli, capi = [], []
    for _ in range(repeat):
        cli.append(cli_seconds(data, rounds, os.path.join(tmp, "cli.json")))
        capi.append(capi_seconds(lib, data, rounds, os.path.join(tmp, "capi.json")))
    with open(os.path.join(tmp, "cli.json"), "rb") as f, \
            open(os.path.join(tmp, "capi.json"), "rb") as g:
        same = f.read() == g.read()
    c, a = statistics.median(cli), statistics.median(capi)
    print("CLI %.2f s, C API %.2f s (median of %d, %d rounds): C API / CLI = %.3f; models %s" %
          (c, a, repeat, rounds, a / c, "identical" if same else "DIFFER"))


if __name__ == "__main__":
    main()
