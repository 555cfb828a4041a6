#!/usr/bin/python3
"""Input that used to crash training or waste a run (issue 16, items 7-10): a feature index
over the limit or one that needs more memory than there is, a row without its label, empty
training data, and outputs that cannot be written. Each fails at once with exit code 2 and one
line naming the file (and line) or the key; multi-process cases run 2 workers on loopback under
treering-submit, bounded in time."""
import os
import resource
import subprocess
import sys
import time

import cli_testlib as t

sys.path.insert(0, os.path.join(t.REPO, "tests", "integration"))
import distlib  # noqa: E402

TRAIN = ["objective=binary:logistic", "num_round=2", "nthread=1", "max_depth=2"]
SECONDS = 60  # a bound for every run: a hang fails the test instead of stalling the suite


def run_measured(args, cwd, limit_as=None):
    """Runs args; returns (exit code, stderr, peak RSS in MiB) of that process alone."""
    def preexec():
        if limit_as is not None:
            resource.setrlimit(resource.RLIMIT_AS, (limit_as, limit_as))
    err_path = os.path.join(cwd, "stderr.txt")
    with open(err_path, "w") as err:
        proc = subprocess.Popen(args, cwd=cwd, stdout=subprocess.DEVNULL, stderr=err,
                                preexec_fn=preexec)
        deadline = time.time() + SECONDS
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid != 0:
                break
            if time.time() > deadline:
                proc.kill()
                proc.wait()
                raise AssertionError("%s still running after %d s" % (args, SECONDS))
            time.sleep(0.02)
    proc.returncode = os.waitstatus_to_exitcode(status)
    with open(err_path) as f:
        return proc.returncode, f.read(), usage.ru_maxrss / 1024.0


def expect_one_line(code, stderr, needles, expected_code=2):
    assert code == expected_code, "exit %d (expected %d): %s" % (code, expected_code, stderr)
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, "expected one line, got: %r" % stderr
    for needle in needles:
        assert needle in lines[0], "%r not in %r" % (needle, lines[0])


def write(d, name, text):
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def train_args(data, *keys):
    return [t.treering_bin(), "/dev/null", "data=" + data, "model_out=m.json"] + TRAIN + list(keys)


def test_feature_index_over_the_limit_fails_at_parse_time():
    """An index of 1e8 used to allocate ~2 GB then die of std::bad_alloc; one of 2^32-1 wrapped
    the 32-bit feature count to 0 and crashed with SIGSEGV."""
    with t.TempDir() as d:
        for index in ["100000000", "4294967295"]:
            data = write(d, "wide.libsvm", "1 0:1\n0 1:2 %s:1\n1 2:1\n" % index)
            code, err, rss = run_measured(train_args(data), d)
            expect_one_line(code, err, ["wide.libsvm:2:7", "feature index over the limit of "
                                        "67108863", "'%s:1'" % index])
            assert rss < 100, "peak RSS %.0f MiB for a 3-row file" % rss
            print("index %s: exit 2 at parse time, peak RSS %.1f MiB" % (index, rss))


def test_wide_index_within_the_limit():
    """Below the limit the learner's per-feature state (~128 B a feature) is checked against
    the memory there is before anything is allocated: under a 1 GiB address-space limit one
    index of 1e7 (1.2 GiB of state) is refused with the index and the memory, while 1e5 trains
    in bounded memory."""
    with t.TempDir() as d:
        data = write(d, "wide.libsvm", "1 0:1\n0 1:2 10000000:1\n1 2:1\n")
        code, err, rss = run_measured(train_args(data), d, limit_as=1 << 30)
        expect_one_line(code, err, ["data = " + data, "feature index 10000000",
                                    "1221 MiB", "available"])
        assert rss < 300, "peak RSS %.0f MiB before the refusal" % rss
        print("index 1e7 under ulimit -v 1 GiB: exit 2, peak RSS %.1f MiB" % rss)
        data = write(d, "wide.libsvm", "1 0:1\n0 1:2 100000:1\n1 2:1\n")
        code, err, rss = run_measured(train_args(data), d)
        assert code == 0, err
        assert rss < 100, "peak RSS %.0f MiB for 1e5 features" % rss
        print("index 1e5: trained, peak RSS %.1f MiB" % rss)


def test_wide_index_mlp_network_budget():
    """booster=mlp sizes its first layer by the feature count (inputs x 256 weights, each kept
    ~32-40 bytes deep): a 3-row file with index 2e6 used 16.5 GB and ran 173 s. Under a 2 GiB
    address-space limit it is refused at once naming the input count and the memory needed,
    while index 1e4 trains."""
    with t.TempDir() as d:
        mlp = ["booster=mlp", "epochs=1", "nthread=1"]
        data = write(d, "wide.libsvm", "1 0:1\n0 1:2 2000000:1\n1 2:1\n")
        args = [t.treering_bin(), "/dev/null", "data=" + data, "model_out=m.mlp",
                "objective=binary:logistic"] + mlp
        code, err, rss = run_measured(args, d, limit_as=2 << 30)
        expect_one_line(code, err, ["data = " + data, "2000001 inputs", "15626 MiB",
                                    "hidden_layers"])
        assert rss < 300, "peak RSS %.0f MiB before the refusal" % rss
        print("mlp, index 2e6 under ulimit -v 2 GiB: exit 2, peak RSS %.1f MiB" % rss)
        data = write(d, "wide.libsvm", "1 0:1\n0 1:2 10000:1\n1 2:1\n")
        code, err, rss = run_measured(args[:2] + ["data=" + data] + args[3:], d,
                                      limit_as=2 << 30)
        assert code == 0, err
        print("mlp, index 1e4: trained, peak RSS %.1f MiB" % rss)


def test_row_without_label_is_located():
    """XGBoost's syntax reads "3:1 4:2" as label 3, weight 1: in an unweighted file the row
    breaks the all-or-none weight rule and is reported with its line."""
    with t.TempDir() as d:
        data = write(d, "rows.libsvm", "1 0:1 2:1\n0 1:2\n3:1 4:2\n1 2:1\n")
        # Regression: on main, label 3 with weight 1 trained silently.
        code, err, _ = run_measured(train_args(data, "objective=reg:squarederror"), d)
        expect_one_line(code, err, ["rows.libsvm:3:1", "row has a weight", "rows.libsvm:1:1",
                                    "got '3:1'"])


def test_empty_training_data_fails():
    with t.TempDir() as d:
        for text in ["", "# only a comment\n\n"]:
            data = write(d, "empty.libsvm", text)
            code, err, _ = run_measured(train_args(data), d)
            expect_one_line(code, err, ["data = " + data, "the training data has no rows"])
            assert not os.path.exists(os.path.join(d, "m.json"))


def test_outputs_checked_before_training():
    with t.TempDir() as d:
        data = write(d, "ok.libsvm", "1 0:1\n0 1:2\n1 0:3\n0 1:1\n")
        cases = [
            (["model_out=typo/m.json"], ["model_out = typo/m.json", "directory typo does not "
                                                                    "exist"]),
            (["model_out=" + d], ["model_out = " + d, "is a directory"]),
            (["save_period=1", "model_dir=ok.libsvm/sub"], ["model_dir = ok.libsvm/sub"]),
            (["model_out=ok.libsvm/m.json"], ["model_out = ok.libsvm/m.json",
                                              "ok.libsvm is not a directory"]),
        ]
        for keys, needles in cases:
            start = time.time()
            code, err, _ = run_measured(train_args(data, *keys), d)
            expect_one_line(code, err, needles)
            assert time.time() - start < 10
        code, err, _ = run_measured(train_args(data), d)
        assert code == 0, err
        for task, key in [("pred", "name_pred"), ("dump", "name_dump"),
                          ("importance", "name_importance")]:
            code, err, _ = run_measured(
                [t.treering_bin(), "/dev/null", "task=" + task, "model_in=m.json",
                 "test:data=" + data, key + "=typo/out.txt"], d)
            expect_one_line(code, err, [key + " = typo/out.txt", "directory typo does not exist"])
        leftovers = [f for f in os.listdir(d) if f.startswith(".treering-write-check")]
        assert not leftovers, leftovers


def submit_two(d, args):
    """2 workers under treering-submit; returns (exit code, stdout + stderr, seconds)."""
    if not os.path.exists(distlib.submit_bin()):
        t.skip("treering-submit is not built")
    start = time.time()
    proc = subprocess.run([distlib.submit_bin(), "--cluster", "local", "--num-workers", "2",
                           "--"] + args, cwd=d, capture_output=True, text=True, timeout=SECONDS)
    return proc.returncode, proc.stdout + proc.stderr, time.time() - start


def test_two_workers_fail_together_on_a_bad_model_out():
    """Rank 0 probes the outputs before the first round and broadcasts its verdict: the other
    rank fails with the same line at once instead of waiting for rank 0 in a collective."""
    with t.TempDir() as d:
        data = write(d, "ok.libsvm", "1 0:1\n0 1:2\n1 0:3\n0 1:1\n" * 20)
        code, out, seconds = submit_two(d, train_args(data, "model_out=typo/m.json",
                                                      "eval[train]=" + data))
        assert code != 0, out
        # Whichever rank reports first, the job ends before any round (no metric line) and
        # names the key and the path (the launcher may stop rank 1 before it prints).
        assert "directory typo does not exist" in out and "model_out = typo/m.json" in out, out
        assert not distlib.metric_lines(out), "rounds ran before the failure: %s" % out
        assert seconds < 20, "%.1f s to fail: %s" % (seconds, out)
        print("2 workers, bad model_out: exit %d in %.1f s" % (code, seconds))


def test_two_workers_empty_data_and_empty_parts():
    with t.TempDir() as d:
        empty = write(d, "empty.libsvm", "")
        code, out, seconds = submit_two(d, train_args(empty))
        assert code != 0, out
        assert "the training data has no rows (in any of the 2 parts)" in out, out
        assert seconds < 20, "%.1f s to fail: %s" % (seconds, out)
        one = write(d, "one.libsvm", "1 0:1 1:2\n")  # part 1 of 2 is empty
        code, out, _ = submit_two(d, train_args(one, "verbosity=2"))
        assert code == 0, out
        assert "data = %s: 1 of the 2 parts hold no rows" % one in out, out
        assert os.path.exists(os.path.join(d, "m.json"))


def test_two_workers_parts_disagree_on_weights():
    """Each part is all-or-none on its own (the loader has no communicator); the driver's
    allreduce catches parts that disagree."""
    with t.TempDir() as d:
        # Lines of equal length, so part 0 of 2 is exactly the unweighted half.
        rows = "".join("%d 0:%d 1:2.000\n" % (i % 2, i) for i in range(10, 30))
        weighted = "".join("%d:0.5 0:%d 1:2\n" % (i % 2, i) for i in range(10, 30))
        data = write(d, "halves.libsvm", rows + weighted)
        code, out, seconds = submit_two(d, train_args(data))
        assert code != 0, out
        assert "1 of the 2 parts have label:weight on every row and 1 on none" in out, out
        assert seconds < 20, "%.1f s to fail: %s" % (seconds, out)


if __name__ == "__main__":
    t.main([test_feature_index_over_the_limit_fails_at_parse_time,
            test_wide_index_within_the_limit,
            test_wide_index_mlp_network_budget,
            test_row_without_label_is_located,
            test_empty_training_data_fails,
            test_outputs_checked_before_training,
            test_two_workers_fail_together_on_a_bad_model_out,
            test_two_workers_empty_data_and_empty_parts,
            test_two_workers_parts_disagree_on_weights])
