"""External memory under the Python package: treering's library must leave the host's signals
alone. A subprocess asks for a `#cache` DMatrix, trains, then gets SIGINT: Python's own
handler must raise KeyboardInterrupt (as with python3-xgboost 1.7.4, the peer, run the same
way), the process goes on, and no cache file is left after it exits."""
import os
import subprocess
import sys

import pytest

SCRIPT = r"""
import os, signal, sys, time
import numpy as np
m = __import__(sys.argv[1])
data, cache_dir = sys.argv[2], sys.argv[3]
try:
    d = m.DMatrix(data + "?format=libsvm#" + os.path.join(cache_dir, "c"))
    print("cache:accepted", flush=True)
except Exception as e:  # treering's C API refuses '#cache' (docs/c-api.md)
    print("cache:refused " + str(e).splitlines()[0], flush=True)
    d = m.DMatrix(data + "?format=libsvm")
booster = m.train({"tree_method": "hist", "nthread": 1}, d, 2)
before = sorted(os.listdir(cache_dir))
try:
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(5)
    print("sigint:ignored", flush=True)
except KeyboardInterrupt:
    print("sigint:KeyboardInterrupt", flush=True)
# The interrupted program goes on with its DMatrix and its cache intact.
assert sorted(os.listdir(cache_dir)) == before, (before, os.listdir(cache_dir))
m.train({"tree_method": "hist", "nthread": 1}, d, 1, xgb_model=booster)
print("after:trained", flush=True)
"""


def write_libsvm(path, rows=400):
    with open(path, "w") as f:
        for i in range(rows):
            f.write("%d 0:%d 1:%.3f 2:%d\n" % (i % 2, i % 7, (i * 37 % 101) / 10.0, i % 3))


def run(module, tmp_path):
    data = str(tmp_path / "d.libsvm")
    write_libsvm(data)
    cache_dir = tmp_path / ("cache-" + module)
    cache_dir.mkdir()
    p = subprocess.run([sys.executable, "-c", SCRIPT, module, data, str(cache_dir)],
                       capture_output=True, text=True, timeout=60, cwd=str(tmp_path))
    return p, sorted(os.listdir(cache_dir))


def test_sigint_is_pythons_and_no_cache_is_left(tmp_path):
    p, left = run("treering", tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "sigint:KeyboardInterrupt" in p.stdout, p.stdout + p.stderr
    assert "after:trained" in p.stdout, p.stdout + p.stderr
    if "cache:refused" in p.stdout:
        assert "external memory" in p.stdout, p.stdout
    assert left == [], "cache files left after exit: %s" % left


def test_the_peer_behaves_the_same(tmp_path):
    pytest.importorskip("xgboost", reason="python3-xgboost 1.7 (the peer) is not installed")
    p, _ = run("xgboost", tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "cache:accepted" in p.stdout, p.stdout + p.stderr
    assert "sigint:KeyboardInterrupt" in p.stdout, p.stdout + p.stderr
