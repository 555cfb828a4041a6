#!/usr/bin/python3
"""The C API trains a distributed job exactly as the CLI does.

distributed_test.py <build dir> <worker program>

The worker program (distributed_train_worker.c) loads its rank's part of a LibSVM file with
XGDMatrixCreateFromFile, trains with XGBoosterUpdateOneIter / EvalOneIter and saves the model
on rank 0. This driver runs 2 of them against a tracker in its own process (XGTrackerCreate /
WorkerArgs / Run / WaitFor through ctypes), then the same configuration with the CLI on 2
workers under treering-submit, and requires byte-identical model files and identical metric
lines; then the same for 1 worker against 1 CLI process. Binary (binary:logistic) and ranking
(rank:pairwise with qid groups, which the sharded load must keep whole) cases."""
import ctypes
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

METRIC_LINE = re.compile(r"^\[\d+\]\t")
ROUNDS = 5


def write_binary(path, rows, rng):
    """6 features, 15% missing; the label depends on features 0-2."""
    with open(path, "w") as f:
        for _ in range(rows):
            x = [rng.gauss(0, 1) for _ in range(6)]
            z = x[0] + 0.5 * x[1] - x[2] ** 2
            cols = ["%d:%.6g" % (j, v) for j, v in enumerate(x) if rng.random() >= 0.15]
            f.write("%d %s\n" % (z > 0, " ".join(cols)))


def write_ranking(path, groups, rng, first_qid):
    """Query groups of 3-12 rows (qid:N, contiguous), relevance 0-2 from features 0-1."""
    with open(path, "w") as f:
        for g in range(groups):
            for _ in range(rng.randint(3, 12)):
                x = [rng.gauss(0, 1) for _ in range(5)]
                z = x[0] - 0.7 * x[1]
                label = 0 if z < -0.5 else (1 if z < 0.5 else 2)
                cols = " ".join("%d:%.6g" % (j, v) for j, v in enumerate(x))
                f.write("%d qid:%d %s\n" % (label, first_qid + g, cols))


CASES = {
    "binary": ["objective=binary:logistic", "eval_metric=auc", "eval_metric=logloss"],
    "ranking": ["objective=rank:pairwise", "eval_metric=ndcg@5", "eval_metric=map"],
}
COMMON = ["max_depth=4", "eta=0.3", "tree_method=hist", "nthread=1"]


def make_data(d, case):
    rng = random.Random(7)
    train, test = (os.path.join(d, "%s.%s.libsvm" % (case, p)) for p in ("train", "test"))
    if case == "binary":  # 2000 rows: each rank's sketch holds every value of its part
        write_binary(train, 2000, rng)
        write_binary(test, 1000, rng)
    else:
        write_ranking(train, 120, rng, 1)
        write_ranking(test, 50, rng, 1000)
    return train, test


class Tracker:
    """A tracker in this process through libtreering.so's XGTracker* calls."""

    def __init__(self, lib, workers):
        self.lib = lib
        self.handle = ctypes.c_void_p()
        config = '{"n_workers": %d, "host": "127.0.0.1", "timeout": 60}' % workers
        self.call("XGTrackerCreate", config.encode(), ctypes.byref(self.handle))
        args = ctypes.c_char_p()
        self.call("XGTrackerWorkerArgs", self.handle, ctypes.byref(args))
        self.worker_args = args.value.decode()
        self.call("XGTrackerRun", self.handle, b"{}")

    def call(self, name, *args):
        if getattr(self.lib, name)(*args) != 0:
            raise AssertionError("%s failed: %s" % (name, self.lib.XGBGetLastError().decode()))

    def finish(self):
        self.call("XGTrackerWaitFor", self.handle, b'{"timeout": 30}')
        self.call("XGTrackerFree", self.handle)


def metric_lines(text):
    return [line for line in text.splitlines() if METRIC_LINE.match(line)]


def run_capi(lib, worker, workers, train, test, model, keys):
    """workers = 0: one worker without a communicator; else that many under a tracker."""
    argv = [worker, "", train, test, model, str(ROUNDS)] + keys
    if workers == 0:
        argv[1] = "0"
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, "C API worker failed:\n" + proc.stderr
        return metric_lines(proc.stdout)
    tracker = Tracker(lib, workers)
    env = dict(os.environ, TREERING_CAPI_WORKER_ARGS=tracker.worker_args)
    procs = []
    for task in range(workers):
        argv[1] = str(task)
        procs.append(subprocess.Popen(list(argv), env=env, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True))
    outputs = [p.communicate(timeout=120) for p in procs]
    for task, (p, (_, err)) in enumerate(zip(procs, outputs)):
        assert p.returncode == 0, "C API worker %d exited %d:\n%s" % (task, p.returncode, err)
    tracker.finish()
    for task, (out, _) in enumerate(outputs[1:], 1):
        assert not metric_lines(out), "rank %d printed metric lines:\n%s" % (task, out)
    return metric_lines(outputs[0][0])


def run_cli(bindir, workers, train, test, model, keys, cwd):
    cli = [os.path.join(bindir, "treering"), "/dev/null", "data=" + train,
           "eval[test]=" + test, "num_round=%d" % ROUNDS, "model_out=" + model] + keys
    if workers > 1:
        cli = [os.path.join(bindir, "treering-submit"), "--cluster", "local", "--num-workers",
               str(workers), "--bind-to", "none", "--"] + cli
    proc = subprocess.run(cli, capture_output=True, text=True, timeout=120, cwd=cwd)
    assert proc.returncode == 0, "%s exited %d:\n%s" % (cli, proc.returncode, proc.stderr)
    return metric_lines(proc.stdout)


def same_bytes(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def check_case(bindir, lib, worker, d, case):
    train, test = make_data(d, case)
    keys = CASES[case] + COMMON
    for workers in (2, 1):
        capi_model = os.path.join(d, "%s.capi%d.json" % (case, workers))
        cli_model = os.path.join(d, "%s.cli%d.json" % (case, workers))
        capi_lines = run_capi(lib, worker, workers, train, test, capi_model, keys)
        cli_lines = run_cli(bindir, workers, train, test, cli_model, keys, d)
        assert len(cli_lines) == ROUNDS, "CLI metric lines: %s" % cli_lines
        assert capi_lines == cli_lines, \
            "%s, %d workers: metric lines differ\nC API: %s\nCLI:   %s" % (
                case, workers, capi_lines, cli_lines)
        assert same_bytes(capi_model, cli_model), \
            "%s, %d workers: the C API model %s differs from the CLI's %s" % (
                case, workers, capi_model, cli_model)
        print("%s, %d worker(s): models byte-identical, %d metric lines equal (last: %s)" % (
            case, workers, len(cli_lines), cli_lines[-1].replace("\t", " ")))
    # A worker that never joins a job (no XGCommunicatorInit) trains the 1-process model too.
    alone = os.path.join(d, "%s.alone.json" % case)
    lines = run_capi(lib, worker, 0, train, test, alone, keys)
    assert lines == cli_lines and same_bytes(alone, os.path.join(d, "%s.cli1.json" % case)), \
        "%s: the C API without a communicator differs from the 1-process CLI" % case


def main():
    if len(sys.argv) != 3:
        print("usage: distributed_test.py <build dir> <worker program>")
        return 2
    build, worker = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    bindir = os.path.join(build, "bin")
    for program in ("treering", "treering-submit"):
        if not os.path.exists(os.path.join(bindir, program)):
            print("SKIP: %s is not built (cmake --build build --target %s)" % (program, program))
            return 77
    lib = ctypes.CDLL(os.path.join(build, "lib", "libtreering.so"))
    lib.XGBGetLastError.restype = ctypes.c_char_p
    start = time.monotonic()
    d = tempfile.mkdtemp(prefix="treering_capi_dist_")
    try:
        for case in CASES:
            check_case(bindir, lib, worker, d, case)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    print("PASS: C API equals the CLI, 1 and 2 workers (%.1f s)" % (time.monotonic() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
