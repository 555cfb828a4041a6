"""The peer for launch_bench.sh: XGBoost 1.7's own Python RabitTracker (what dmlc-submit runs)
plus N worker processes, each with DMLC_TASK_ID=i. Prints the job's wall time in seconds.
usage: python_tracker_launch.py N COMMAND ARGS..."""
import os
import subprocess
import sys
import time

from xgboost.tracker import RabitTracker


def main():
    n = int(sys.argv[1])
    command = sys.argv[2:]
    start = time.perf_counter()
    tracker = RabitTracker(host_ip="127.0.0.1", n_workers=n, sortby="task")
    tracker.start(n)
    env = dict(os.environ)
    env.update({k: str(v) for k, v in tracker.worker_envs().items()})
    procs = []
    for i in range(n):
        worker_env = dict(env, DMLC_TASK_ID=str(i), DMLC_ROLE="worker")
        procs.append(subprocess.Popen(command, env=worker_env, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL))
    codes = [p.wait() for p in procs]
    tracker.join()
    if any(codes):
        sys.exit("worker exit codes %s" % codes)
    print("%.4f" % (time.perf_counter() - start))


if __name__ == "__main__":
    main()
