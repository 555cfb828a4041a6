#!/usr/bin/python3
"""Elastic jobs (docs/fault-tolerance.md, "Elastic jobs"): a job that loses a worker for good
finishes on the others with the byte-identical model of an uninterrupted run.

Under `cluster.sh run 4 -- elastic_test.py BIN_DIR [CASE...]` the workers run on the simulated
hosts over ssh and "taken down" means host 3 (rank 2) leaves the network (its eth0 down, so
no FIN or RST reaches anyone) and its worker is SIGKILLed; with `--local` (no root needed) the
4 workers run here and rank 2 is SIGKILLed. Cases:
  shrink     rank 2 lost mid-job: the tracker drops it after --elastic-timeout, the 3 others
             are renumbered and resume from the last checkpoint; the model equals the
             uninterrupted 4-worker (and 3-worker) model; prints the pause
  minimum    the same loss with --min-workers 4: the job fails naming rank 2 and its host
  grow       a 3-worker elastic job joined after round 12 by `treering-submit --join` (on host 4
             of the cluster): admitted at a round boundary as rank 3; same model
Exit 0 pass, 1 fail, 77 skipped."""
import hashlib
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_test as ct  # noqa: E402  (its helpers: the cluster's hosts, data, checks)

SKIP = 77
LOCAL = "--local" in sys.argv
ARGS = [a for a in sys.argv[1:] if a != "--local"]
BIN = os.path.abspath(ARGS[0]) if ARGS else ""
TREERING = os.path.join(BIN, "treering")
SUBMIT = os.path.join(BIN, "treering-submit")
CLUSTER, HOSTS, NETNS, SSH = ct.CLUSTER, ct.HOSTS, ct.NETNS, ct.SSH
Failed, check = ct.Failed, ct.check
ROUNDS = 60
KILL_AFTER = 12  # rank 0's evaluation line of this round is the kill's clock
KEYS = ["objective=binary:logistic", "num_round=%d" % ROUNDS, "max_depth=6", "nthread=1",
        "seed=3", "subsample=0.8", "colsample_bynode=0.8", "rabit_timeout=4",
        "rabit_bootstrap_timeout=10"]
# A silent host is noticed by each survivor only when its own collective times out (up to
# rabit_timeout after the first survivor's recover Hello opened the epoch), so on the simulated
# hosts the elastic timeout must exceed rabit_timeout or slow survivors are dropped too; a
# killed local process is noticed at once.
ELASTIC_TIMEOUT = "2" if "--local" in sys.argv else "6"
ELASTIC = ["--elastic", "--elastic-timeout", ELASTIC_TIMEOUT, "--recovery-timeout", "30"]


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:16]


def submit_argv(workers, extra):
    argv = [SUBMIT, "--num-workers", str(workers)]
    if LOCAL:
        argv += ["--cluster", "local"]
    else:
        argv += ["--cluster", "ssh", "--host-file", os.path.join(CLUSTER, "hosts"),
                 "--ssh-command", SSH]
    return argv + extra


def command(work, data, model, extra=()):
    return [TREERING, "/dev/null", "data=" + data, "model_out=" + model] + KEYS + list(extra)


def rank2_workers(model):
    """The worker process of rank 2 (task 2): locally by its environment, on the cluster by
    host 3's network namespace."""
    found = []
    if LOCAL:
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                cmd = open("/proc/%s/cmdline" % pid, "rb").read().replace(b"\0", b" ").decode()
                env = open("/proc/%s/environ" % pid, "rb").read().split(b"\0")
            except OSError:
                continue
            if cmd.startswith(TREERING + " ") and model in cmd and b"DMLC_TASK_ID=2" in env:
                found.append(int(pid))
        return found
    return [pid for ns, pid, _ in ct.workers_on_hosts(model, TREERING + " ") if ns == NETNS[2]]


def run_with_loss(work, data, model, extra_submit):
    """Starts the 4-worker elastic job, takes rank 2 down after round KILL_AFTER, returns
    (exit code, stderr, seconds from the loss to the end)."""
    argv = submit_argv(4, ELASTIC + extra_submit) + ["--"] + command(
        work, data, model, ["eval[train]=" + data])
    err_path = os.path.join(work, "err.%d" % time.time_ns())
    started = time.time()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=open(err_path, "w"), text=True)
    victims, lost_at = [], None
    deadline = time.time() + 120
    for line in proc.stdout:
        if line.startswith("[%d]" % KILL_AFTER):
            victims = rank2_workers(model)
            if not LOCAL:  # the host leaves the network: nothing reaches the others
                subprocess.run(["ip", "-n", NETNS[2], "link", "set", "eth0", "down"], check=True)
            for pid in victims:
                os.kill(pid, signal.SIGKILL)
            lost_at = time.time()
            break
        check(time.time() < deadline, "no round %d within 120 s" % KILL_AFTER)
    try:
        proc.communicate(timeout=120)
    finally:
        if not LOCAL:
            subprocess.run(["ip", "-n", NETNS[2], "link", "set", "eth0", "up"])
    check(victims, "no worker of rank 2 found to kill")
    with open(err_path) as f:
        err = f.read()
    return proc.returncode, err, time.time() - lost_at, time.time() - started


def case_shrink(work, data, reference):
    model = os.path.join(work, "shrink.json")
    code, err, took, wall = run_with_loss(work, data, model, [])
    check(code == 0, "elastic job failed (exit %d):\n%s" % (code, err[-3000:]))
    m = re.search(r"\[tracker\] (elastic: rank 2 (\[rank 2 on (\S+)\] )?left after round (-?\d+); "
                  r"world 4 -> 3 \(epoch \d+\); paused ([\d.]+) s[^\n]*)", err)
    check(m, "no elastic line naming rank 2 and 4 -> 3:\n" + err[-3000:])
    if not LOCAL:
        check(m.group(3) == HOSTS[2], "the line names host %s, not %s" % (m.group(3), HOSTS[2]))
    resumed = sorted(set(int(v) for v in re.findall(r"checkpoint version (\d+)", err)))
    check(len(resumed) == 1, "survivors resumed from different versions: %s" % resumed)
    check(digest(model) == digest(reference),
          "model differs from the uninterrupted run's (%s vs %s)" % (digest(model),
                                                                  digest(reference)))
    redone = int(m.group(4)) + 1 - resumed[0]
    finished = re.search(r"\[tracker\] job finished; wall time ([\d.]+) s", err)
    check(finished, "no 'job finished' line")
    wall = float(finished.group(1))  # the tracker's: not the wait for a lost host's ssh
    print("shrink: rank 2 lost after round %d; %s; resumed from round %d (%d round(s) redone); "
          "loss to end %.1f s; tracker's job wall %.1f s (uninterrupted %.1f s); model "
          "identical (%s)" %
          (KILL_AFTER, m.group(1), resumed[0], redone, took, wall, REFERENCE_WALL[0],
           digest(model)))


def case_minimum(work, data, reference):
    model = os.path.join(work, "minimum.json")
    code, err, took, _ = run_with_loss(work, data, model, ["--min-workers", "4"])
    check(code == 1, "exit %d, expected 1:\n%s" % (code, err[-3000:]))
    last = [l for l in err.splitlines() if "job failed" in l]
    check(last, "no 'job failed' line:\n" + err[-2000:])
    line = last[-1]
    check("elastic: lost rank 2" in line and "min_workers = 4" in line,
          "the failure does not name rank 2 and min_workers: " + line)
    if not LOCAL:
        check("rank 2 on %s" % HOSTS[2] in line, "the failure does not name host %s: %s" %
              (HOSTS[2], line))
    check(not os.path.exists(model), "a model was written by the failed job")
    print("minimum: failed %.1f s after the loss: %s" % (took, line))


def case_grow(work, data, reference):
    model = os.path.join(work, "grow.json")
    argv = submit_argv(3, ELASTIC) + ["--"] + command(work, data, model,
                                                     ["eval[train]=" + data])
    err_path = os.path.join(work, "grow.err")
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=open(err_path, "w"), text=True)
    joiner, join_err, asked_at = None, os.path.join(work, "join.err"), None
    deadline = time.time() + 120
    for line in proc.stdout:
        if line.startswith("[%d]" % KILL_AFTER):
            with open(err_path) as f:
                m = re.search(r"status: http://(\S+):(\d+)/\?token=(\w+)", f.read())
            check(m, "no status line with the tracker's address and token")
            join = [SUBMIT, "--join", "%s:%s" % (m.group(1), m.group(2))]
            if not LOCAL:  # from host 4, which is not in the job
                join = ["ip", "netns", "exec", NETNS[3]] + join
            env = dict(os.environ, TREERING_JOB_TOKEN=m.group(3))
            joiner = subprocess.Popen(join + ["--"] + argv[argv.index("--") + 1:], env=env,
                                      stdout=subprocess.DEVNULL, stderr=open(join_err, "w"))
            asked_at = time.time()
            break
        check(time.time() < deadline, "no round %d within 120 s" % KILL_AFTER)
    proc.communicate(timeout=120)
    check(joiner is not None, "the job ended before round %d" % KILL_AFTER)
    joiner.wait(timeout=60)
    with open(err_path) as f:
        err = f.read()
    with open(join_err) as f:
        jerr = f.read()
    check(proc.returncode == 0, "grown job failed (exit %d):\n%s" % (proc.returncode, err[-3000:]))
    check(joiner.returncode == 0, "the joiner failed:\n" + jerr[-3000:])
    m = re.search(r"\[tracker\] (elastic: rank 3 (\[rank 3 on (\S+)\] )?joined after round "
                  r"(-?\d+); world 3 -> 4 [^\n]*)", err)
    check(m, "no elastic line naming rank 3 and 3 -> 4:\n" + err[-3000:])
    if not LOCAL:
        check(m.group(3) == HOSTS[3], "the line names host %s, not %s" % (m.group(3), HOSTS[3]))
    check(digest(model) == digest(reference),
          "model differs from the uninterrupted run's (%s vs %s)" % (digest(model),
                                                                  digest(reference)))
    finished = re.search(r"\[tracker\] job finished; wall time ([\d.]+) s", err)
    print("grow: joiner started after round %d; %s; tracker's job wall %s s (uninterrupted "
          "4 workers %.1f s); model identical (%s)" % (KILL_AFTER, m.group(1),
                                                     finished and finished.group(1),
                                                     REFERENCE_WALL[0], digest(model)))


REFERENCE_WALL = [0.0]  # the uninterrupted 4-worker job's wall time (eval lines included)
CASES = {"shrink": case_shrink, "minimum": case_minimum, "grow": case_grow}


def main():
    if not LOCAL and (not CLUSTER or len(HOSTS) < 4):
        print("SKIP: run under `tests/cluster/cluster.sh run 4 -- ...` (no 4-host cluster) "
              "or with --local")
        return SKIP
    for exe in (TREERING, SUBMIT):
        if not os.path.exists(exe):
            print("SKIP: %s is not built" % exe)
            return SKIP
    names = [a for a in ARGS[1:]] or list(CASES)
    failed = []
    with tempfile.TemporaryDirectory(prefix="treering-elastic-test-") as work:
        data = os.path.join(work, "train.libsvm")
        ct.write_data(data, rows=20000)
        refs = {}
        p = subprocess.run(submit_argv(4, []) + ["--"] + command(
            work, data, os.path.join(work, "timed.json"), ["eval[train]=" + data]),
            capture_output=True, text=True, timeout=120)
        m = re.search(r"\[tracker\] job finished; wall time ([\d.]+) s", p.stderr)
        REFERENCE_WALL[0] = float(m.group(1)) if m else -1
        for workers in (4, 3):
            refs[workers] = os.path.join(work, "ref%d.json" % workers)
            p = subprocess.run(submit_argv(workers, []) + ["--"] +
                               command(work, data, refs[workers]), capture_output=True, text=True,
                               timeout=120)
            if p.returncode != 0:
                print("FAIL: the %d-worker reference job failed:\n%s" % (workers, p.stderr[-2000:]))
                return 1
        if digest(refs[4]) != digest(refs[3]):
            print("FAIL: 3 and 4 workers give different models (docs/distributed.md)")
            return 1
        for name in names:
            try:
                started = time.time()
                CASES[name](work, data, refs[4])
                print("  (%s: %.1f s)" % (name, time.time() - started))
            except (Failed, subprocess.TimeoutExpired) as e:
                failed.append(name)
                print("FAIL %s: %s" % (name, e))
    if failed:
        print("FAILED: " + ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
