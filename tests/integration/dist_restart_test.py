#!/usr/bin/python3
"""Whole-job restart: a 2-worker job with row and column sampling is killed (SIGTERM to
treering-submit, which stops every worker) after its save_period snapshot of round 4; the job
started again with model_in = that snapshot and the remaining rounds ends with a model file
byte-identical to the uninterrupted run's. (Sampling streams are functions of the seed and the
model's round / tree number, not of how many rounds this process ran.)"""
import os
import signal
import subprocess
import time

import distlib
from distlib import t

ROUNDS = 30
KEYS = ["objective=binary:logistic", "max_depth=5", "nthread=1", "subsample=0.7",
        "colsample_bytree=0.8", "colsample_bynode=0.7", "seed=11"]


def job(train, model_dir, extra):
    return [distlib.submit_bin(), "--cluster", "local", "--num-workers", "2", "--",
            t.treering_bin(), "/dev/null", "data=" + train, "save_period=4",
            "model_dir=" + model_dir] + KEYS + extra


def test_resumed_job_ends_with_the_uninterrupted_model():
    with t.TempDir() as d:
        train, _ = distlib.write_data(d, "binary", 20000)
        full = os.path.join(d, "full")
        t.run(job(train, full, ["num_round=%d" % ROUNDS]))
        # The interrupted job: killed as a whole once round 4's snapshot exists (if it ends
        # first, its snapshot is the same file: the check below still holds).
        cut = os.path.join(d, "cut")
        proc = subprocess.Popen(job(train, cut, ["num_round=%d" % ROUNDS]),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        snapshot = os.path.join(cut, "0004.model")
        deadline = time.time() + 300
        while not os.path.exists(snapshot) and proc.poll() is None and time.time() < deadline:
            time.sleep(0.005)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=120)
        final = os.path.join(cut, "%04d.model" % ROUNDS)
        print("interrupted job: exit code %d, %s" % (proc.returncode, "finished before the kill"
              if os.path.exists(final) else "killed before its last round"))
        assert os.path.exists(snapshot), "no snapshot 0004.model"
        with open(os.path.join(full, "0004.model"), "rb") as a, open(snapshot, "rb") as b:
            assert a.read() == b.read(), "the interrupted job's snapshot differs"
        resumed = os.path.join(d, "resumed.model")  # the snapshots' format
        t.run(job(train, os.path.join(d, "again"),
                  ["model_in=" + snapshot, "num_round=%d" % (ROUNDS - 4),
                   "model_out=" + resumed]))
        with open(os.path.join(full, "%04d.model" % ROUNDS), "rb") as a, open(resumed, "rb") as b:
            assert a.read() == b.read(), "the resumed model differs from the uninterrupted one"
        # The check has teeth: resuming from round 4 with another seed gives another model.
        other = os.path.join(d, "other.model")
        t.run(job(train, os.path.join(d, "other"),
                  ["model_in=" + snapshot, "num_round=%d" % (ROUNDS - 4), "model_out=" + other,
                   "seed=12"]))
        with open(resumed, "rb") as a, open(other, "rb") as b:
            assert a.read() != b.read(), "the seed does not matter: sampling is not exercised"


if __name__ == "__main__":
    t.need_xgboost_python()  # numpy generates the data
    if not os.path.exists(distlib.submit_bin()):
        print("SKIP: treering-submit is not built")
        raise SystemExit(t.SKIP)
    t.main([test_resumed_job_ends_with_the_uninterrupted_model])
