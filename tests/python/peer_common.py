"""Shared set-up for the Python package's peer tests.

Each test runs one scenario twice, with `treering` and with Debian's python3-xgboost 1.7.4,
and compares the results. argv[1] is the build directory (its lib/ holds libtreering.so).
Exit 77 (ctest skip) when the peer is missing.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.normpath(os.path.join(HERE, "..", ".."))


def load_modules():
    """(treering, xgboost) modules, or exit 77 when xgboost 1.7 is not installed."""
    if len(sys.argv) > 1 and "TREERING_LIBRARY" not in os.environ:
        os.environ["TREERING_LIBRARY"] = os.path.join(sys.argv[1], "lib", "libtreering.so")
    sys.path.insert(0, os.path.join(SOURCE, "python-package"))
    try:
        import xgboost
    except ImportError:
        print("skip: python3-xgboost (the peer) is not installed")
        sys.exit(77)
    if not xgboost.__version__.startswith("1.7"):
        print(f"skip: the peer is xgboost {xgboost.__version__}, not 1.7")
        sys.exit(77)
    import treering
    return treering, xgboost


def make_data(rows=300, cols=6, seed=0, nan_fraction=0.1, kind="binary"):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(rows, cols))
    score = x[:, 0] - 0.5 * x[:, 1] + 0.25 * x[:, 2] * x[:, 3]
    x[rng.random(size=x.shape) < nan_fraction] = np.nan
    if kind == "binary":
        y = (score + 0.3 * rng.normal(size=rows) > 0).astype(np.float64)
    elif kind == "multi":
        y = np.digitize(score, [-0.5, 0.5]).astype(np.float64)
    else:
        y = score + 0.1 * rng.normal(size=rows)
    return x, y


def assert_close(ours, theirs, what, rtol=1e-6, atol=1e-6):
    ours = np.asarray(ours)
    theirs = np.asarray(theirs)
    assert ours.shape == theirs.shape, f"{what}: shape {ours.shape} vs xgboost {theirs.shape}"
    if not np.allclose(ours, theirs, rtol=rtol, atol=atol, equal_nan=True):
        diff = np.nanmax(np.abs(ours.astype(np.float64) - theirs.astype(np.float64)))
        raise AssertionError(f"{what}: max abs difference {diff} from xgboost")


def run_cases(cases):
    """Run (name, fn) cases; print one line each; exit 1 if any failed."""
    failed = 0
    for name, fn in cases:
        try:
            fn()
            print(f"ok   {name}")
        except Exception as err:  # report every case, not just the first failure
            failed += 1
            print(f"FAIL {name}: {type(err).__name__}: {err}")
    print(f"{len(cases) - failed}/{len(cases)} passed")
    sys.exit(1 if failed else 0)
