"""Helpers shared by the `treering` integration tests (run with /usr/bin/python3 by ctest).

Each test script takes the build's bin directory as argv[1] and exits 1 (fail) if any of its
tests failed, else 77 (skipped, shown as such by ctest: every script is registered with
SKIP_RETURN_CODE 77) if any test or part of one did not run because a reference peer or data
set is not installed, else 0 (pass: everything ran and passed). A script that passes only some
of its checks is never reported as passed."""
import os
import shutil
import subprocess
import sys
import tempfile
import traceback

SKIP = 77
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE_MODEL = os.path.join(REPO, "tests", "model", "data", "xgboost-1.7-sample-model.json")


def treering_bin():
    return os.path.abspath(os.path.join(sys.argv[1], "treering"))


class Skipped(Exception):
    pass


def skip(reason):
    """Skips the rest of the current test; the script then exits 77 unless a test failed."""
    raise Skipped(reason)


_skipped_parts = []  # reasons the current test gave skip_part(), in order, without repeats


def skip_part(reason):
    """Records that a part of the current test cannot run here (its peer is missing) while the
    test goes on with its other checks; the script then exits 77 unless a test failed."""
    if reason not in _skipped_parts:
        _skipped_parts.append(reason)
        print("SKIP (part): " + reason)


def need_xgboost_python():
    try:
        import xgboost  # noqa: F401
        import numpy  # noqa: F401
    except ImportError as e:  # called before the tests run: the whole script is skipped
        print("SKIP %s: python3-xgboost / python3-numpy not installed (%s): no test ran" %
              (os.path.basename(sys.argv[0]), e))
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
    """Runs every test, prints what passed, skipped (and why) and failed, and exits 1 if a test
    failed, 77 if none failed but a test or part of one was skipped, 0 if all ran and passed."""
    passed, skipped, failed = [], [], []
    for fn in test_functions:
        del _skipped_parts[:]
        try:
            fn()
            if _skipped_parts:  # its other checks passed, but not everything was checked
                skipped.append((fn.__name__, "ran, but skipped: " + "; ".join(_skipped_parts)))
                print("SKIP %s (partly): its other checks passed; not run: %s" %
                      (fn.__name__, "; ".join(_skipped_parts)))
            else:
                passed.append(fn.__name__)
                print("PASS " + fn.__name__)
        except Skipped as e:
            reasons = _skipped_parts + [str(e)]
            skipped.append((fn.__name__, "; ".join(reasons)))
            print("SKIP %s: %s" % (fn.__name__, "; ".join(reasons)))
        except Exception as e:  # AssertionError, or an error of the test itself
            failed.append(fn.__name__)
            detail = str(e) if isinstance(e, AssertionError) else traceback.format_exc()
            print("FAIL %s: %s" % (fn.__name__, detail))
    script = os.path.basename(sys.argv[0])
    print("%s: %d of %d tests passed, %d skipped, %d failed" %
          (script, len(passed), len(test_functions), len(skipped), len(failed)))
    for name in passed:
        print("  passed:  " + name)
    for name, why in skipped:
        print("  skipped: %s: %s" % (name, why))
    for name in failed:
        print("  FAILED:  " + name)
    if failed:
        sys.exit(1)
    if skipped:
        print("%s: exit 77 (skipped): not every check ran; install the missing peer(s) "
              "(scripts/install-deps.sh)" % script)
        sys.exit(SKIP)
    sys.exit(0)
