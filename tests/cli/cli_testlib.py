"""Helpers shared by the `treering` integration tests (run with /usr/bin/python3 by ctest).

Each test script takes the build's bin directory as argv[1] and exits 0 (pass), 1 (fail)
or 77 (skip: a reference peer or data set is not installed)."""
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE_MODEL = os.path.join(REPO, "tests", "model", "data", "xgboost-1.7-sample-model.json")


def treering_bin():
    return os.path.abspath(os.path.join(sys.argv[1], "treering"))


class Skipped(Exception):
    pass


def skip(reason):
    """Skips the current test (the script exits 77 only when every test skipped)."""
    raise Skipped(reason)


def need_xgboost_python():
    try:
        import xgboost  # noqa: F401
        import numpy  # noqa: F401
    except ImportError:  # called before the tests run: the whole script is skipped
        print("SKIP: python3-xgboost / numpy not installed")
        sys.exit(SKIP)


def run(args, cwd=None, check=True):
    """Runs a command, returns CompletedProcess (text); fails the test on a non-zero exit."""
    proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=600)
    if check and proc.returncode != 0:
        raise AssertionError("%s exited %d\nstdout:\n%s\nstderr:\n%s" %
                             (" ".join(args), proc.returncode, proc.stdout, proc.stderr))
    return proc


def write_libsvm(path, x, y):
    """NaN in x is a missing value: the entry is left out of the row."""
    import numpy as np
    with open(path, "w") as f:
        for row, label in zip(x, y):
            cols = [" %d:%.6g" % (j, v) for j, v in enumerate(row) if not np.isnan(v)]
            f.write(("%.6g" % label) + "".join(cols) + "\n")


def read_values(path):
    with open(path) as f:
        return [float(line) for line in f]


class TempDir:
    def __enter__(self):
        self.path = tempfile.mkdtemp(prefix="treering_cli_")
        return self.path

    def __exit__(self, *exc):
        shutil.rmtree(self.path, ignore_errors=True)


def main(test_functions):
    failed = skipped = 0
    for fn in test_functions:
        try:
            fn()
            print("PASS " + fn.__name__)
        except Skipped as e:
            skipped += 1
            print("SKIP %s: %s" % (fn.__name__, e))
        except AssertionError as e:
            failed += 1
            print("FAIL %s: %s" % (fn.__name__, e))
    sys.exit(1 if failed else SKIP if skipped == len(test_functions) else 0)
