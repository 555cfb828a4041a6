#!/usr/bin/python3
"""Streamed in-memory load (docs/data.md, "Streamed load"; TREERING_STREAM_LOAD=1 forces it on
small data, =0 off): the model is byte-identical to the plain load's (8- and 16-bit bins,
weighted rows, several slices, sparse data which loads as usual), the private directory under
TMPDIR is gone at the end (and after SIGTERM), and an unusable TMPDIR is one note naming it,
after which the matrix loads whole in memory with the same model."""
import glob
import os
import subprocess
import time

import numpy as np

import cli_testlib as t

KEYS = ["tree_method=hist", "max_depth=5", "eta=0.3", "nthread=2", "max_bin=64",
        "objective=binary:logistic", "num_round=6"]


def write_data(path, rows, cols, seed, weighted=False, sparse=False):
    rng = np.random.default_rng(seed)
    x = np.round(rng.standard_normal((rows, cols)), 3)
    y = (x[:, 0] + x[:, 1] > 0).astype(int)
    with open(path, "w") as f:
        for i in range(rows):
            head = "%d:%g" % (y[i], 0.5 + (i % 4) / 4) if weighted else "%d" % y[i]
            feats = [(j, v) for j, v in enumerate(x[i]) if not (sparse and (i + j) % 5 == 0)]
            f.write(head + " " + " ".join("%d:%g" % (j, v) for j, v in feats) + "\n")


def train(d, data, model, stream, extra=(), tmpdir=None):
    env = dict(os.environ, TREERING_STREAM_LOAD=stream,
               TMPDIR=tmpdir or os.path.join(d, "tmp"),
               TREERING_EXTERNAL_SLICE_BYTES="40000")  # ~10 slices of the files below
    args = [t.treering_bin(), "/dev/null", "data=" + data + "?format=libsvm",
            "model_out=" + model] + KEYS + list(extra)
    proc = subprocess.run(args, cwd=d, capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, "%s exited %d\n%s" % (args, proc.returncode, proc.stderr)
    return proc


def read(path):
    with open(path, "rb") as f:
        return f.read()


def assert_identical(d, data, extra=()):
    os.makedirs(os.path.join(d, "tmp"), exist_ok=True)
    train(d, data, "plain.json", "0", extra)
    proc = train(d, data, "streamed.json", "1", extra)
    assert read(os.path.join(d, "plain.json")) == read(os.path.join(d, "streamed.json")), \
        "streamed model differs from the plain load's (%s %s)" % (data, extra)
    assert os.listdir(os.path.join(d, "tmp")) == [], os.listdir(os.path.join(d, "tmp"))
    assert "streamed load" not in proc.stderr, proc.stderr


def test_dense_identical():
    with t.TempDir() as d:
        write_data(os.path.join(d, "b.libsvm"), 4000, 10, 1)
        assert_identical(d, "b.libsvm")
        assert_identical(d, "b.libsvm", ["max_bin=300"])  # 16-bit bins, no column copy


def test_weighted_and_sparse_identical():
    with t.TempDir() as d:
        write_data(os.path.join(d, "w.libsvm"), 3000, 8, 2, weighted=True)
        assert_identical(d, "w.libsvm")
        write_data(os.path.join(d, "s.libsvm"), 3000, 8, 3, sparse=True)
        assert_identical(d, "s.libsvm")


def test_unusable_tmpdir_falls_back_with_a_note():
    with t.TempDir() as d:
        write_data(os.path.join(d, "e.libsvm"), 2000, 6, 4)
        not_a_dir = os.path.join(d, "file")
        open(not_a_dir, "w").close()
        train(d, "e.libsvm", "plain.json", "0", tmpdir=not_a_dir)
        proc = train(d, "e.libsvm", "fallback.json", "1", tmpdir=not_a_dir)
        notes = [l for l in proc.stderr.splitlines() if "streamed load" in l]
        assert len(notes) == 1 and not_a_dir in notes[0] and "Not a directory" in notes[0] \
            and "whole in memory" in notes[0], proc.stderr
        assert read(os.path.join(d, "plain.json")) == read(os.path.join(d, "fallback.json"))
        # Streaming off (small files by default): TMPDIR is never touched, no note.
        proc = train(d, "e.libsvm", "off.json", "0", tmpdir=not_a_dir)
        assert "streamed load" not in proc.stderr, proc.stderr


def test_sigterm_removes_the_directory():
    with t.TempDir() as d:
        write_data(os.path.join(d, "k.libsvm"), 20000, 20, 5)
        tmp = os.path.join(d, "tmp")
        os.makedirs(tmp)
        # 1 KB slices: the load spills for a few seconds, long enough to be caught at it.
        env = dict(os.environ, TREERING_STREAM_LOAD="1", TMPDIR=tmp,
                   TREERING_EXTERNAL_SLICE_BYTES="1000")
        proc = subprocess.Popen([t.treering_bin(), "/dev/null", "data=k.libsvm?format=libsvm",
                                 "model_out=x.json"] + KEYS, cwd=d, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 60
        while not glob.glob(os.path.join(tmp, "treering-stream-*", "data.col0.spill")):
            assert proc.poll() is None and time.time() < deadline, "no spill directory seen"
            time.sleep(0.002)
        proc.terminate()
        proc.communicate(timeout=120)
        assert proc.returncode == -15, proc.returncode
        assert os.listdir(tmp) == [], os.listdir(tmp)


if __name__ == "__main__":
    t.main([test_dense_identical, test_weighted_and_sparse_identical,
            test_unusable_tmpdir_falls_back_with_a_note, test_sigterm_removes_the_directory])
