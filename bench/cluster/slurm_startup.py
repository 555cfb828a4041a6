#!/usr/bin/python3
"""Job start-up under Slurm against `treering-submit --cluster ssh` on 4 simulated hosts (issue 32:
within 1.5 s of ssh). Each job is the same 4-worker treering job of one round on 3000 rows, so
its wall time is start-up plus a few milliseconds; the median of REPEATS runs of each form:
  ssh          treering-submit --cluster ssh (the peer: ssh to each host, tracker here)
  srun         plain `srun -N4 -n4 treering` (allocation + step + the Slurm rendezvous)
  salloc       `salloc -N4 -n4 treering-submit --cluster slurm` (allocation + 4 one-task steps)
  in-alloc     treering-submit --cluster slurm inside an allocation that already exists
  sbatch       treering-submit --cluster slurm --nodes 4 outside (sbatch --wait: Slurm's poll)
usage (root): tests/cluster/slurm.sh run 4 -- /usr/bin/python3 bench/cluster/slurm_startup.py BIN
  [REPEATS]. The link rate is the cluster's (CLUSTER_RATE, 1gbit by default)."""
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests",
                                "cluster"))
import cluster_test as ct  # noqa: E402

REPEATS = int(sys.argv[2]) if len(sys.argv) > 2 else 5


def timed(argv, env=None, cwd=None):
    t0 = time.time()
    p = subprocess.run(argv, capture_output=True, text=True, env=dict(os.environ, **(env or {})),
                       cwd=cwd)
    took = time.time() - t0
    if p.returncode != 0:
        sys.exit("bench: %s failed:\n%s" % (argv[:4], p.stderr[-2000:]))
    return took


def main():
    if "--inner" in sys.argv:  # inside salloc: time treering-submit in the allocation
        command = sys.argv[sys.argv.index("--inner") + 1:]
        for _ in range(REPEATS):
            print("%.4f" % timed([ct.SUBMIT, "--cluster", "slurm", "--"] + command), flush=True)
        return 0
    work = tempfile.mkdtemp(prefix="treering-slurm-bench-")
    os.chmod(work, 0o755)
    data = os.path.join(work, "train.libsvm")
    ct.write_data(data)
    command = [ct.TREERING, "/dev/null", "data=" + data, "num_round=1", "nthread=1",
               "model_out=" + os.path.join(work, "m.json")]
    hosts = os.path.join(os.environ["CLUSTER_DIR"], "hosts")
    forms = {
        "ssh": lambda: timed([ct.SUBMIT, "--cluster", "ssh", "--num-workers", "4", "--host-file",
                              hosts, "--ssh-command", os.environ["CLUSTER_SSH"], "--"] + command),
        "srun": lambda: timed(["srun", "-I5", "-N4", "-n4"] + command,
                              env={"TREERING_RENDEZVOUS_DIR": os.path.join(work, "rdv")}),
        "salloc": lambda: timed(["salloc", "-I5", "-N4", "-n4", ct.SUBMIT, "--cluster", "slurm",
                                 "--"] + command),
        "sbatch": lambda: timed([ct.SUBMIT, "--cluster", "slurm", "--nodes", "4", "--"] + command,
                                cwd=work),
    }
    results = {}
    for name, job in forms.items():
        results[name] = [job() for _ in range(REPEATS)]
    inner = subprocess.run(["salloc", "-I5", "-N4", "-n4", "/usr/bin/python3",
                            os.path.abspath(__file__), ct.BIN, str(REPEATS), "--inner"] + command,
                           capture_output=True, text=True)
    results["in-alloc"] = [float(x) for x in inner.stdout.split()]
    ssh = statistics.median(results["ssh"])
    print("start-up of a 1-round 4-worker job on 4 simulated hosts at %s, median of %d:"
          % (os.environ.get("CLUSTER_RATE", "?"), REPEATS))
    for name in ["ssh", "srun", "salloc", "in-alloc", "sbatch"]:
        m = statistics.median(results[name])
        print("  %-9s %6.3f s   %+6.3f s vs ssh   x%.2f   (min %.3f, max %.3f)"
              % (name, m, m - ssh, m / ssh, min(results[name]), max(results[name])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
