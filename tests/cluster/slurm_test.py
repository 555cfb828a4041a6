#!/usr/bin/python3
"""treering under a real Slurm on the simulated hosts (run as `slurm.sh run 4 -- slurm_test.py
BIN_DIR [CASE...]`, which starts slurmctld and one slurmd per host and sets SLURM_CONF).

Every job trains the same small boosting model; each must end byte-identical to the 4-worker
job on this one host (`--cluster local`), and its ranks must have run on the 4 hosts. Cases:
  srun      plain `srun -N4 -n4 treering ...`: the Slurm rendezvous, no launcher
  capi      plain srun of a Python program over the C API: collective.init() with no arguments
  alloc     `salloc -N4 -n4 treering-submit --cluster slurm`: srun steps from the tracker here
  batch     `treering-submit --cluster slurm --nodes 4 ...` outside an allocation: sbatch --wait,
            the output relayed with rank prefixes, the job's exit status (also of a failed job)
  restart   a worker SIGKILLed mid-job is restarted as a one-task step on its node and rejoins
  requeue   `scontrol requeue` of a running job: the rerun resumes from rank 0's last snapshot
  errors    a bad partition, an unknown SLURM_JOB_ID and an ended allocation (srun refuses the
            step): one line naming the command and Slurm's message, exit 2
Exit 0 pass, 1 fail, 77 skipped."""
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_test as ct  # noqa: E402  (its helpers: data, checks, the reference job)

SKIP = 77
check, run, read, Failed = ct.check, ct.run, ct.read, ct.Failed
# Each rank records its host's address; under plain srun its rank is SLURM_PROCID.
ct.RECORD_HOST = ct.RECORD_HOST.replace("OMPI_COMM_WORLD_RANK", "SLURM_PROCID")
SLURM_NODES = os.environ.get("SLURM_TEST_NODES", "").split()


class SlurmJob(ct.Job):
    def recorded(self, where, model_out, extra=()):
        return self.recorded_command(where, model_out, extra)


def submit_slurm(args, command, **kw):
    return run([ct.SUBMIT, "--cluster", "slurm"] + args + ["--"] + command, **kw)


def case_srun(job):
    model, where = os.path.join(job.work, "srun.json"), os.path.join(job.work, "where-srun")
    rdv = os.path.join(job.work, "rendezvous")
    p, took = run(["srun", "-I5", "-N4", "-n4"] + job.recorded(where, model), timeout=120,
                  env={"TREERING_RENDEZVOUS_DIR": rdv})
    check(p.returncode == 0, "srun job failed:\n" + p.stderr[-3000:])
    job.expect_model(model, "srun")
    job.expect_on_cluster(where, "srun")
    check(os.listdir(rdv) == [], "srun: rendezvous files left: %s" % os.listdir(rdv))
    check(oct(os.stat(rdv).st_mode & 0o777) == oct(0o700), "srun: rendezvous dir not 0700")
    print("srun: 4 hosts, Slurm rendezvous, model identical, %.2f s" % took)


# A program of its own over the C API (the Python package): no tracker arguments at all.
COLLECTIVE_PROGRAM = """
import socket, subprocess, sys
sys.path.insert(0, sys.argv[1])
import numpy as np
from treering import collective
collective.init()
rank, world = collective.get_rank(), collective.get_world_size()
total = collective.allreduce(np.array([rank + 1.0, 2.0 ** rank]), collective.Op.SUM)
addr = subprocess.run(["ip", "-4", "-o", "addr", "show", "dev", "eth0"], capture_output=True,
                      text=True).stdout.split()[3].split("/")[0]
print("rank %d of %d at %s: %g %g" % (rank, world, addr, total[0], total[1]), flush=True)
collective.finalize()
"""


def case_capi(job):
    lib = os.path.join(os.path.dirname(ct.BIN), "lib", "libtreering.so")
    if not os.path.exists(lib):
        print("SKIP part capi: no %s (target treering_shared)" % lib)
        return
    package = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                           "python-package")
    program = os.path.join(job.work, "collective.py")
    with open(program, "w") as f:
        f.write(COLLECTIVE_PROGRAM)
    p, took = run(["srun", "-I5", "-N4", "-n4", "/usr/bin/python3", program, package],
                  timeout=120, env={"TREERING_LIBRARY": lib,
                                    "TREERING_RENDEZVOUS_DIR": os.path.join(job.work, "rdv")})
    check(p.returncode == 0, "capi: srun of a C API program failed:\n" + p.stderr[-3000:])
    lines = sorted(l for l in p.stdout.splitlines() if l.startswith("rank "))
    want = ["rank %d of 4 at %s: 10 15" % (r, ct.HOSTS[r]) for r in range(4)]
    check(lines == want, "capi: got %s, want %s" % (lines, want))
    print("capi: srun of a Python program (collective.init() without arguments) on 4 hosts, "
          "allreduce right, %.2f s" % took)


def case_alloc(job):
    model, where = os.path.join(job.work, "alloc.json"), os.path.join(job.work, "where-alloc")
    p, took = run(["salloc", "-I5", "-N4", "-n4", ct.SUBMIT, "--cluster", "slurm", "--"] +
                  job.recorded(where, model), timeout=120)
    check(p.returncode == 0, "salloc job failed:\n" + p.stderr[-3000:])
    check("4 workers on 4 node(s); tracker %s" % os.environ["CLUSTER_LAUNCHER_IP"] in p.stderr,
          "alloc: the tracker address is not the route to the first node:\n" + p.stderr[-1500:])
    job.expect_model(model, "alloc")
    job.expect_on_cluster(where, "alloc")
    print("alloc: salloc + srun steps on 4 hosts, model identical, %.2f s" % took)


def case_batch(job):
    model, where = os.path.join(job.work, "batch.json"), os.path.join(job.work, "where-batch")
    p, took = submit_slurm(["--nodes", "4", "--ntasks-per-node", "1", "--time", "5",
                            "--partition", "debug"], job.recorded(where, model), cwd=job.work,
                           timeout=120)
    check(p.returncode == 0, "batch job failed:\n" + p.stderr[-3000:])
    check(re.search(r"^\[rank 0\] treering: 24 rounds", p.stderr, re.M),
          "batch: the workers' output is not relayed with rank prefixes:\n" + p.stderr[-1500:])
    check(re.search(r"^\[submit\] slurm job \d+ ended with exit code 0$", p.stderr, re.M),
          "batch: no end line:\n" + p.stderr[-1000:])
    check(not [f for f in os.listdir(job.work) if f.startswith(".treering-slurm")],
          "batch: output files left behind")
    job.expect_model(model, "batch")
    job.expect_on_cluster(where, "batch")
    # A job that fails: its status is ours.
    bad, _ = submit_slurm(["--nodes", "4"], [ct.TREERING, "/dev/null", "data=/nonexistent"],
                          cwd=job.work, timeout=120)
    check(bad.returncode == 1 and "ended with exit code 1" in bad.stderr,
          "batch: a failed job's status is not returned (%d):\n%s" % (bad.returncode,
                                                                       bad.stderr[-1500:]))
    print("batch: sbatch --wait on 4 hosts, model identical, %.2f s; failed job exit 1" % took)


def case_restart(job):
    model = os.path.join(job.work, "restart.json")
    eval_keys = ["eval[train]=" + job.train]  # rank 0 prints a line per round: the kill's clock
    proc = subprocess.Popen(
        ["salloc", "-I5", "-N4", "-n4", ct.SUBMIT, "--cluster", "slurm", "--local-num-attempt",
         "2", "--"] + job.command(model, extra=eval_keys), stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    victim = None
    deadline = time.time() + 60
    for line in proc.stdout:
        if line.startswith("[4]"):
            victim = [w for w in ct.workers_on_hosts(model, ct.TREERING + " ")
                      if w[0] == ct.NETNS[2]]
            for _, pid, _ in victim:
                os.kill(pid, signal.SIGKILL)
            break
        check(time.time() < deadline, "restart: no round 4 within 60 s")
    out, err = proc.communicate(timeout=120)
    check(victim, "restart: no worker found on host 3 to kill")
    check(proc.returncode == 0, "restart job failed:\n" + err[-3000:])
    check(re.search(r"\[rank 2\] exited with code \d+ on node n3; restart 1 of 2", err),
          "restart: the killed worker was not restarted on its node:\n" + err[-2000:])
    job.expect_model(model, "restart")
    print("restart: worker on n3 killed at round 4, restarted as a one-task step, model identical")


def case_requeue(job):
    """A 120-round job snapshotting every 10 rounds is requeued once its 40-round snapshot
    exists; the rerun must resume from the last snapshot and end with the uninterrupted model."""
    rounds = ["num_round=120"]  # after KEYS' num_round: the last one counts
    reference = os.path.join(job.work, "requeue-ref.json")
    p, _ = ct.submit("local", [], job.command(reference) + rounds)
    check(p.returncode == 0, "requeue: reference job failed:\n" + p.stderr[-1500:])
    model, model_dir = os.path.join(job.work, "requeue.json"), os.path.join(job.work, "md")
    keys = rounds + ["model_dir=" + model_dir, "save_period=10"]
    proc = subprocess.Popen(
        [ct.SUBMIT, "--cluster", "slurm", "--nodes", "4", "--ntasks-per-node", "1",
         "--sbatch-arg=--requeue", "--sbatch-arg=--signal=USR1@60", "--"] +
        job.command(model, extra=keys), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, cwd=job.work)
    deadline = time.time() + 60
    while not os.path.exists(os.path.join(model_dir, "0040.model")):
        check(proc.poll() is None and time.time() < deadline,
              "requeue: no 40-round snapshot while the job ran")
        time.sleep(0.02)
    job_id = subprocess.run(["squeue", "-h", "-o", "%i", "-n", "treering"], capture_output=True,
                            text=True).stdout.split()
    check(len(job_id) == 1, "requeue: no single running treering job: %s" % job_id)
    requeued_at = time.time()
    snapshots_then = sorted(os.listdir(model_dir))
    subprocess.run(["scontrol", "requeue", job_id[0]], check=True)
    # Slurm holds a requeued job for 120 s (Reason BeginTime, set once the old run has ended);
    # a test does not wait that long: once the hold is there, it starts the job now.
    deadline = time.time() + 30
    pending = False
    while proc.poll() is None and time.time() < deadline:
        state = subprocess.run(["squeue", "-h", "-o", "%T %r", "-j", job_id[0]],
                               capture_output=True, text=True).stdout.split()
        pending = pending or state[:1] == ["PENDING"]
        if pending and state[:1] == ["RUNNING"]:
            break
        if state[1:] == ["BeginTime"]:
            subprocess.run(["scontrol", "update", "jobid=" + job_id[0], "StartTime=now"],
                           capture_output=True)
        time.sleep(0.1)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    took = time.time() - requeued_at
    check(proc.returncode == 0, "requeue: job failed:\n" + err[-3000:])
    m = re.search(r"resuming from \S+/(\d+)\.model \((\d+) of 120 rounds done\)", err)
    check(m, "requeue: the rerun did not resume from a snapshot:\n" + err[-2000:])
    check(read(model) == read(reference), "requeue: model differs from the uninterrupted run's")
    print("requeue: requeued when %s was the last snapshot, resumed at round %s, model "
          "identical; requeue to job end %.1f s" % (snapshots_then[-1], m.group(2), took))


def case_errors(job):
    p, _ = submit_slurm(["--partition", "nope"], ["true"], cwd=job.work, timeout=60)
    lines = p.stderr.strip().splitlines()
    check(p.returncode == 2 and lines == [
        "treering-submit: sbatch: Batch job submission failed: Invalid partition name specified"],
        "bad partition: not one line, exit 2 (%d):\n%s" % (p.returncode, p.stderr))
    p, _ = submit_slurm([], ["true"], env={"SLURM_JOB_ID": "999999"}, timeout=60)
    check(p.returncode == 2 and p.stderr.strip().startswith("treering-submit: scontrol show job:")
          and len(p.stderr.strip().splitlines()) == 1,
          "stale allocation: not one line, exit 2 (%d):\n%s" % (p.returncode, p.stderr))
    # An allocation that has just ended (Slurm still knows it): srun refuses the step.
    p, _ = run(["salloc", "-I5", "-N1", "-n1", "sh", "-c", "echo $SLURM_JOB_ID"], timeout=60)
    ended = p.stdout.strip()
    p, _ = submit_slurm([], ["true"], env={"SLURM_JOB_ID": ended, "SLURM_JOB_NODELIST": "n1",
                                           "SLURM_TASKS_PER_NODE": "1"}, timeout=60)
    check(p.returncode == 2 and p.stderr.strip().startswith("treering-submit: srun: ")
          and len(p.stderr.strip().splitlines()) == 1,
          "srun refused: not one line, exit 2 (%d):\n%s" % (p.returncode, p.stderr))
    print("errors: bad partition, unknown and ended allocations: one line each, exit 2 (%s)"
          % p.stderr.strip())


CASES = {"srun": case_srun, "capi": case_capi, "alloc": case_alloc, "batch": case_batch, "restart": case_restart,
         "requeue": case_requeue, "errors": case_errors}


def main():
    if not os.environ.get("SLURM_CONF") or len(SLURM_NODES) < 4:
        print("SKIP: run under tests/cluster/slurm.sh run 4 -- (no Slurm set up)")
        return SKIP
    if not (os.access(ct.TREERING, os.X_OK) and os.access(ct.SUBMIT, os.X_OK)):
        print("SKIP: no treering / treering-submit in %s" % ct.BIN)
        return SKIP
    names = sys.argv[2:] or list(CASES)
    # The job's working directory must be one every node sees: this file system is shared.
    with tempfile.TemporaryDirectory(prefix="treering-slurm-test-") as work:
        os.chmod(work, 0o755)
        job = SlurmJob(work)
        for name in names:
            started = time.time()
            try:
                CASES[name](job)
            except (Failed, subprocess.TimeoutExpired) as e:
                print("FAIL %s: %s" % (name, e))
                return 1
            print("  (%s: %.1f s)" % (name, time.time() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
