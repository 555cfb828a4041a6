#!/usr/bin/python3
"""The timing report's link model on the simulated cluster (run under `cluster.sh run 2 --rate
100mbit -- cost_model_test.py BIN_DIR`, which sets the CLUSTER_* variables).

A 2-host job over 100 Mbit/s links, given rabit_link_bandwidth_mbps=100: the report's predicted
T_sync must be the formula computed here from the report's own bytes and calls, the bottleneck
must be sync (7.3 MB of histograms a round cannot cross 100 Mbit/s faster than 0.59 s, the
compute of 8000 rows takes milliseconds), and the measured T_sync must not beat the link
(>= 0.8 x the bandwidth term: the tbf rate holds; load only makes it slower, so this bound
holds on a busy machine too). bench/cluster/cost_model.sh is the full-size check.
Exit 0 pass, 1 fail, 77 skipped."""
import os
import random
import re
import subprocess
import sys
import tempfile

SKIP = 77
BIN = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else ""
TREERING = os.path.join(BIN, "treering")
SUBMIT = os.path.join(BIN, "treering-submit")
CLUSTER = os.environ.get("CLUSTER_DIR", "")
SSH = os.environ.get("CLUSTER_SSH", "")
MBPS, LATENCY_US, WORKERS, ROUNDS = 100, 50, 2, 3
NUMBER = r"([0-9.]+)"


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def write_data(path, rows=8000, features=28):
    """Dense rows with more than 256 distinct values a feature: every level's histograms are
    full size (28 features x 256 bins x 16 B a node)."""
    rng = random.Random(5)
    with open(path, "w") as f:
        for _ in range(rows):
            x = [rng.random() for _ in range(features)]
            label = int(x[0] + 0.5 * x[1] + 0.2 * rng.random() > 0.85)
            f.write("%d %s\n" % (label, " ".join("%d:%.5f" % (j, v) for j, v in enumerate(x))))


def run_job(work):
    hosts = os.path.join(work, "hosts")
    with open(os.path.join(CLUSTER, "hosts")) as src, open(hosts, "w") as dst:
        dst.writelines(src.readlines()[:WORKERS])
    data = os.path.join(work, "train.libsvm")
    write_data(data)
    conf = os.path.join(work, "train.conf")
    with open(conf, "w") as f:
        f.write("objective = binary:logistic\nmax_depth = 7\nnthread = 1\n")
    argv = [SUBMIT, "--cluster", "ssh", "--num-workers", str(WORKERS), "--host-file", hosts,
            "--ssh-command", SSH, "--", TREERING, conf, "num_round=%d" % ROUNDS, "data=" + data,
            "model_out=" + os.path.join(work, "m.json"), "rabit_timeout=20",
            "rabit_link_bandwidth_mbps=%d" % MBPS, "rabit_link_latency_us=%d" % LATENCY_US]
    p = subprocess.run(argv, cwd=work, capture_output=True, text=True, timeout=50)
    if p.returncode != 0:
        fail("job exit %d:\n%s" % (p.returncode, p.stderr[-2000:]))
    return p.stderr


def check_report(log):
    first = re.search(r"T_sync " + NUMBER + r" s, .* " + NUMBER + r" bytes in " + NUMBER +
                      " collectives", log)
    link = re.search(r"predicted T_sync per round = .* = " + NUMBER + r" \+ " + NUMBER +
                     " = " + NUMBER + r" s \(measured", log)
    rnd = re.search(r"predicted round = .*bottleneck: (\w+)", log)
    if not (first and link and rnd):
        fail("timing report lines missing:\n" + log[-2000:])
    sync, payload, calls = (float(g) for g in first.groups())
    latency_term, byte_term, predicted = (float(g) for g in link.groups())
    # The formula, from the report's own per-round payload and calls (4 decimals printed).
    steps = 2  # 2 ranks: one exchange each way
    want_latency = calls * steps * LATENCY_US * 1e-6
    want_bytes = 2 * (WORKERS - 1) / WORKERS * payload / (MBPS * 1e6 / 8)
    for what, got, want in (("latency term", latency_term, want_latency),
                            ("byte term", byte_term, want_bytes),
                            ("predicted T_sync", predicted, want_latency + want_bytes)):
        if abs(got - want) > 1.5e-4:
            fail("%s %.4f, formula gives %.5f" % (what, got, want))
    if payload < 2e6:
        fail("%.0f bytes a round: expected full histograms (>= 2 MB)" % payload)
    if rnd.group(1) != "sync":
        fail("bottleneck %s at 100 Mbit/s" % rnd.group(1))
    if sync < 0.8 * want_bytes:
        fail("measured T_sync %.4f s beats the link: %.0f bytes need %.4f s at %d Mbit/s" %
             (sync, payload, want_bytes, MBPS))
    print("ok: predicted T_sync %.4f s (formula %.4f), measured %.4f s, bottleneck sync" %
          (predicted, want_latency + want_bytes, sync))


def main():
    if not CLUSTER or not SSH:
        print("SKIP: run under tests/cluster/cluster.sh run 2 --rate 100mbit")
        return SKIP
    for path in (TREERING, SUBMIT):
        if not os.access(path, os.X_OK):
            print("SKIP: no %s" % path)
            return SKIP
    with tempfile.TemporaryDirectory() as work:
        check_report(run_job(work))
    return 0


if __name__ == "__main__":
    sys.exit(main())
