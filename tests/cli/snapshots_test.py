#!/usr/bin/python3
"""Snapshots, the final save and resuming, the same for every learner (one train driver, see
booster/learner.h): each test runs once with booster=gbtree and once with booster=mlp.

* model_dir gets NNNN.<suffix> (model, as XGBoost's CLI names them / mlp) after every save period, holding that many rounds;
* with model_dir and no model_out the final save does not write the last snapshot again when
  it already is model_dir/<rounds>.<suffix> (every rename into model_dir is watched);
* a run resumed from a snapshot with model_in writes the uninterrupted run's model, byte for
  byte, and prints its metric values;
* a model_dir that cannot be created fails with exit code 2 and one line naming model_dir and
  the OS's reason, before anything is written."""
import ctypes
import ctypes.util
import errno
import json
import os
import random
import struct
import sys

import cli_testlib as t


class Booster:
    """How a learner's keys say the same thing: rounds (num_round adds to model_in's rounds,
    epochs is the total) and the save period (save_period / save_every)."""

    def __init__(self, name, suffix, keys, rounds, period):
        self.name, self.suffix, self.keys = name, suffix, keys
        self._rounds, self._period = rounds, period

    def rounds(self, total, done=0):
        return self._rounds(total, done)

    def period(self, k):
        return self._period + "=%d" % k


BOOSTERS = [
    Booster("gbtree", "model", ["objective=binary:logistic", "max_depth=3", "subsample=0.8",
                               "colsample_bynode=0.8", "seed=3"],
            lambda total, done: "num_round=%d" % (total - done), "save_period"),
    Booster("mlp", "mlp", ["booster=mlp", "objective=binary:logistic", "hidden_layers=8",
                           "batch_size=32", "optimizer=adam", "learning_rate=0.01", "seed=3"],
            lambda total, done: "epochs=%d" % total, "save_every"),
]


def make_data(d):
    rng = random.Random(11)
    paths = []
    for name, rows in (("train.libsvm", 400), ("test.libsvm", 150)):
        path = os.path.join(d, name)
        with open(path, "w") as f:
            for _ in range(rows):
                x = [rng.gauss(0, 1) for _ in range(6)]
                y = 1 if x[0] - 0.7 * x[1] + 0.5 * x[2] * x[3] + rng.gauss(0, 0.3) > 0 else 0
                f.write("%d %s\n" % (y, " ".join("%d:%.4f" % (j, v) for j, v in enumerate(x))))
        paths.append(path)
    return paths


def train(b, d, *keys, check=True):
    train_path, test_path = make_data(d)
    return t.run([t.treering_bin(), "/dev/null", "data=" + train_path, "eval[test]=" + test_path,
                  "eval_metric=logloss", "nthread=1"] + b.keys + list(keys), cwd=d, check=check)


def rounds_in(path):
    """Boosting rounds (one tree each: binary) or epochs held by a model file."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:1] == b"{":  # a tree model as JSON (XGBoost reads JSON whatever the name)
        return len(json.loads(data)["learner"]["gradient_booster"]["model"]["trees"])
    if path.endswith(".model"):  # a tree model in another XGBoost format: ask XGBoost
        import xgboost
        return xgboost.Booster(model_file=path).num_boosted_rounds()
    (header_len,) = struct.unpack_from("<Q", data, 8)
    return json.loads(data[16:16 + header_len])["epochs_done"]


def metric_values(stdout):
    """The metric part of each "[i]\\ttest-logloss:..." line (round numbers differ by learner
    when resuming: XGBoost numbers the new rounds from 0, the MLP goes on counting)."""
    return [l.split("\t", 1)[1] for l in stdout.splitlines() if l.startswith("[")]


class RenameWatch:
    """Names renamed into a directory (the last step of treering's atomic file writes), read
    with Linux inotify through libc. File creations are watched too, though not reported: the
    kernel merges two identical events in a row, and each write creates its temporary file
    between its rename and the one before."""
    IN_CREATE, IN_MOVED_TO, IN_NONBLOCK = 0x100, 0x80, 0o4000

    def __init__(self, path):
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        self.fd = libc.inotify_init1(self.IN_NONBLOCK)
        mask = self.IN_CREATE | self.IN_MOVED_TO
        if self.fd < 0 or libc.inotify_add_watch(self.fd, path.encode(), mask) < 0:
            t.skip("inotify is not available: %s" % os.strerror(ctypes.get_errno()))

    def names(self):
        names = []
        while True:
            try:
                buf = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                break
            i = 0
            while i < len(buf):
                _, mask, _, length = struct.unpack_from("iIII", buf, i)
                if mask & self.IN_MOVED_TO:
                    names.append(buf[i + 16:i + 16 + length].rstrip(b"\0").decode())
                i += 16 + length
        os.close(self.fd)
        return names


def snapshots_every_period(b):
    with t.TempDir() as d:
        train(b, d, b.rounds(5), b.period(2), "model_dir=snap")
        files = sorted(os.listdir(os.path.join(d, "snap")))
        want = ["0002." + b.suffix, "0004." + b.suffix, "0005." + b.suffix]
        assert files == want, files
        assert [rounds_in(os.path.join(d, "snap", f)) for f in files] == [2, 4, 5]


def final_save_keeps_last_snapshot(b):
    with t.TempDir() as d:
        snap = os.path.join(d, "snap")
        os.mkdir(snap)
        watch = RenameWatch(snap)
        train(b, d, b.rounds(4), b.period(2), "model_dir=snap")
        renamed = watch.names()
        last = "0004." + b.suffix
        assert sorted(os.listdir(snap)) == ["0002." + b.suffix, last], os.listdir(snap)
        assert renamed == ["0002." + b.suffix, last], \
            "files renamed into model_dir: %s (the final save wrote %s again)" % (renamed, last)


def resume_equals_uninterrupted(b):
    with t.TempDir() as d:
        full = train(b, d, b.rounds(5), "model_out=full." + b.suffix)
        train(b, d, b.rounds(5), b.period(2), "model_dir=snap")
        snapshot = os.path.join("snap", "0002." + b.suffix)
        resumed = train(b, d, b.rounds(5, done=2), "model_in=" + snapshot,
                        "model_out=resumed." + b.suffix)
        assert metric_values(resumed.stdout) == metric_values(full.stdout)[2:], \
            (resumed.stdout, full.stdout)
        with open(os.path.join(d, "full." + b.suffix), "rb") as f, \
                open(os.path.join(d, "resumed." + b.suffix), "rb") as g:
            assert f.read() == g.read(), "the resumed model differs from the uninterrupted one"


def bad_model_dir_fails(b):
    with t.TempDir() as d:
        open(os.path.join(d, "taken"), "w").close()
        bad = os.path.join("taken", "snap")  # below a file: ENOTDIR
        proc = train(b, d, b.rounds(2), "model_dir=" + bad, check=False)
        lines = proc.stderr.strip().splitlines()
        assert proc.returncode == 2, (proc.returncode, proc.stderr)
        assert len(lines) == 1, proc.stderr
        assert "model_dir = " + bad in lines[0], lines[0]
        assert lines[0].endswith(": " + os.strerror(errno.ENOTDIR)), lines[0]
        assert sorted(os.listdir(d)) == ["taken", "test.libsvm", "train.libsvm"], os.listdir(d)


def for_each_booster(*tests):
    cases = []
    for test in tests:
        for b in BOOSTERS:
            def case(test=test, b=b):
                test(b)
            case.__name__ = "%s[%s]" % (test.__name__, b.name)
            cases.append(case)
    return cases


if __name__ == "__main__":
    if not sys.platform.startswith("linux"):
        print("SKIP: the rename watch needs Linux inotify")
        sys.exit(t.SKIP)
    t.main(for_each_booster(snapshots_every_period, final_save_keeps_last_snapshot,
                            resume_equals_uninterrupted, bad_model_dir_fails))
