#!/usr/bin/env python3
"""Fault-injection trials for any treering job (docs/fault-tolerance.md).

Runs COMMAND under `treering-submit --cluster local` once without faults (the reference digest
and wall time), then TRIALS times with faults chosen from SEED: SIGKILL of rank 0, of two ring
neighbours at once, or of 1-3 random ranks at random moments (each its own moment); SIGSTOP of
one rank (a frozen worker); or mock= fault points passed to the workers. Each trial must end as
--expect says:
Faults are placed after a random round's progress line (rank 0's `[i]\t...` print), so they
land mid-job whatever the machine's load.
  recover  exit 0 and the digest byte-identical to the failure-free run (a robust engine);
  fail     a non-zero exit within --fail-within seconds, with a line naming a victim's rank
           (what the plain engine must do: fail cleanly, never hang).
The digest is rank 0's tracker print `digest=HEX` (fault_worker) or, with --digest-file, the
SHA-256 of a file the job writes (e.g. the model of `treering train.conf`).

  run_trials.py --submit build/bin/treering-submit --trials 20 --seed 7 \\
      --faults kill --expect recover -- build/tests/fault_worker fault_sleep_ms=40
Exit code: 0 when every trial ended as expected, 1 otherwise, 2 for bad usage.
"""
import argparse
import hashlib
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--submit", required=True, help="path of treering-submit")
    p.add_argument("--workers", type=int, default=4)
    p.add_argument("--attempts", type=int, default=4,
                   help="attempts per worker: --local-num-attempt ATTEMPTS-1")
    p.add_argument("--trials", type=int, default=6)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--faults", default="kill",
                   help="comma list of kill, stop, mock (trials cycle through them)")
    p.add_argument("--max-kills", type=int, default=3, help="at most this many victims a trial")
    p.add_argument("--expect", choices=["recover", "fail"], default="recover")
    p.add_argument("--fail-within", type=float, default=60,
                   help="--expect fail: seconds the failure may take (after the fault)")
    p.add_argument("--timeout", type=float, default=180, help="seconds before a run is a hang")
    p.add_argument("--recovery-timeout", type=float, default=30,
                   help="treering-submit --recovery-timeout")
    p.add_argument("--mock-versions", type=int, default=10,
                   help="mock faults: versions 0..N-1 to choose from")
    p.add_argument("--mock-seqnos", type=int, default=3,
                   help="mock faults: collectives 0..N-1 of a version to choose from")
    p.add_argument("--progress-regex", default=r"^\[(\d+)\]\t",
                   help="a stdout line marking that round group(1) is done (rank 0's eval lines); "
                        "faults are placed by round, which holds on a loaded machine")
    p.add_argument("--digest-file", help="digest = SHA-256 of this file (deleted before each run)")
    p.add_argument("--digest-regex", default=r"^digest=([0-9a-f]+)$",
                   help="digest = group 1 of this regex on the job's stdout")
    p.add_argument("--workdir", default=".", help="directory the job runs in")
    p.add_argument("--quiet", action="store_true", help="no job output on failed trials")
    p.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND ARGS...")
    a = p.parse_args()
    if a.command and a.command[0] == "--":
        a.command = a.command[1:]
    if not a.command:
        p.error("no job command given after --")
    a.faults = [f.strip() for f in a.faults.split(",") if f.strip()]
    bad = [f for f in a.faults if f not in ("kill", "stop", "mock")]
    if bad:
        p.error("unknown fault kind(s): " + ", ".join(bad))
    return a


def worker_pid(submit_pid, rank):
    """The launcher's child for task `rank` (it leads its own process group), or None."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            if ppid != submit_pid:
                continue
            with open(f"/proc/{entry}/environ", "rb") as f:
                env = f.read().split(b"\0")
        except (OSError, ValueError, IndexError):
            continue
        if f"DMLC_TASK_ID={rank}".encode() in env:
            return int(entry)
    return None


class Run:
    """One treering-submit job; faults are (seconds after start, signal, rank)."""

    def __init__(self, args, extra_args=(), restarts=True, faults=()):
        # faults: (round, delay seconds after that round's progress line, signal, rank)
        self.args, self.faults = args, sorted(faults)
        self.rounds_seen = -1
        self.progress = threading.Condition()
        self.cmd = [args.submit, "--cluster", "local", "--num-workers", str(args.workers),
                    "--grace", "2", "--recovery-timeout", str(args.recovery_timeout)]
        if restarts and args.attempts > 1:
            self.cmd += ["--local-num-attempt", str(args.attempts - 1)]
        self.cmd += ["--"] + args.command + list(extra_args)
        self.injected = []  # (seconds, signal name, rank, pid or None)

    def execute(self):
        if self.args.digest_file:
            path = os.path.join(self.args.workdir, self.args.digest_file)
            if os.path.exists(path):
                os.remove(path)
        t0 = time.monotonic()
        proc = subprocess.Popen(self.cmd, cwd=self.args.workdir, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, errors="replace")
        out_lines, err_lines = [], []
        readers = [threading.Thread(target=self._read, args=(proc.stdout, out_lines, True)),
                   threading.Thread(target=self._read, args=(proc.stderr, err_lines, False))]
        injector = threading.Thread(target=self._inject, args=(proc, t0), daemon=True)
        for t in readers + [injector]:
            t.start()
        try:
            proc.wait(timeout=self.args.timeout)
            self.hung = False
        except subprocess.TimeoutExpired:
            proc.kill()  # the launcher; the supervisor's workers die with their pipes' readers
            proc.wait()
            self.hung = True
        for t in readers:
            t.join(timeout=30)
        with self.progress:
            self.progress.notify_all()
        injector.join()
        out, err = "".join(out_lines), "".join(err_lines)
        self.seconds = time.monotonic() - t0
        self.rc, self.out, self.err = proc.returncode, out, err
        self.digest = self._digest()
        return self

    def _read(self, stream, lines, is_stdout):
        pattern = re.compile(self.args.progress_regex)
        for line in stream:
            lines.append(line)
            m = pattern.search(line) if is_stdout else None
            if m:
                with self.progress:
                    self.rounds_seen = max(self.rounds_seen, int(m.group(1)))
                    self.progress.notify_all()

    def _inject(self, proc, t0):
        # Faults with the same moment (ring neighbours) strike together: every victim's pid is
        # looked up first, then all are signalled back to back.
        moments = {}
        for after_round, delay, sig, rank in self.faults:
            moments.setdefault((after_round, delay), []).append((sig, rank))
        for (after_round, delay), victims in sorted(moments.items()):
            with self.progress:
                while self.rounds_seen < after_round and proc.poll() is None:
                    self.progress.wait(timeout=0.05)
            if delay > 0:
                time.sleep(delay)
            if proc.poll() is not None:
                return
            pids = [(sig, rank, worker_pid(proc.pid, rank)) for sig, rank in victims]
            for sig, rank, pid in pids:
                if pid is not None:
                    try:
                        os.killpg(pid, sig)
                    except ProcessLookupError:
                        pid = None
                self.injected.append((round(time.monotonic() - t0, 3), signal.Signals(sig).name,
                                      rank, pid))

    def _digest(self):
        if self.args.digest_file:
            path = os.path.join(self.args.workdir, self.args.digest_file)
            if not os.path.exists(path):
                return None
            with open(path, "rb") as f:
                return hashlib.sha256(f.read()).hexdigest()
        m = re.search(self.args.digest_regex, self.out, re.MULTILINE)
        return m.group(1) if m else None


def plan_trial(args, index, rng, reference):
    """(faults, extra args, description) of trial `index`. A fault strikes after the progress
    line of a random round between 10% and 80% of the reference run's rounds, plus a random
    fraction of one round's time, so it lands mid-job however loaded the machine is."""
    kind = args.faults[index % len(args.faults)]
    n = args.workers
    rounds = max(reference.rounds_seen + 1, 1)
    per_round = reference.seconds / rounds

    def when():
        after = rng.randint(int(0.1 * rounds), max(int(0.8 * rounds) - 1, 0))
        return after, rng.uniform(0, per_round)
    if kind == "mock":
        rank = rng.randrange(n)
        version, seqno = rng.randrange(args.mock_versions), rng.randrange(args.mock_seqnos)
        return [], [f"mock={rank},{version},{seqno},0"], f"mock rank {rank} v{version} #{seqno}"
    if kind == "stop":
        rank = rng.randrange(n)
        after, delay = when()
        return ([(after, delay, signal.SIGSTOP, rank)], [],
                f"SIGSTOP rank {rank} after round {after} + {delay:.2f}s")
    # rank 0 / two ring neighbours / 1-3 random ranks, in turn over the kill trials
    pattern = sum(args.faults[j % len(args.faults)] == "kill" for j in range(index)) % 3
    if pattern == 0:
        victims = [0]
    elif pattern == 1:
        first = rng.randrange(n)
        victims = [first, (first + 1) % n]  # ring neighbours, killed at the same moment
    else:
        victims = rng.sample(range(n), rng.randint(1, min(args.max_kills, n)))
    if pattern == 1:
        after, delay = when()
        faults = [(after, delay, signal.SIGKILL, r) for r in victims]
    else:
        faults = [when() + (signal.SIGKILL, r) for r in victims]
    what = ", ".join(f"rank {r} after round {a} + {d:.2f}s" for a, d, _, r in sorted(faults))
    return faults, [], "SIGKILL " + what


def judge(args, run, reference):
    if run.hung:
        return f"HUNG (killed after {args.timeout:.0f} s)"
    struck = any(pid is not None for _, _, _, pid in run.injected)
    mocked = any(x.startswith("mock=") for x in run.cmd)
    if run.faults and not struck and not mocked:
        # A trial whose job ended before its fault tested nothing: the workload is too short
        # for this machine (or the progress lines that place faults are missing).
        return "MISSED: the job ended before any fault struck"
    if args.expect == "recover":
        if run.rc != 0:
            return f"exit code {run.rc}"
        if run.digest != reference:
            return f"digest {run.digest} != reference {reference}"
        if (struck or mocked) and not re.search(r"recovery epoch \d+: all", run.err):
            return "a worker died but no recovery epoch completed: the fault had no effect"
        return None
    if run.rc == 0:
        return "the job succeeded although it should have failed"
    victims = {r for _, _, r, pid in run.injected if pid is not None}
    victims |= {int(x.split(",")[0].split("=")[1]) for x in run.cmd if x.startswith("mock=")}
    first = min((t for t, _, _, _ in run.injected), default=0.0)
    if run.seconds - first > args.fail_within:
        return f"failed {run.seconds - first:.1f} s after the fault (> {args.fail_within} s)"
    if any(name == "SIGSTOP" for _, name, _, _ in run.injected):
        # A frozen rank is seen as "no progress" by its neighbours, which may blame the rank
        # they wait for (itself waiting for the frozen one): a clean, bounded failure suffices.
        return None
    # The launcher's final "job failed: REASON" line (not any "[rank i]" output prefix) must
    # name a victim: the tracker or the first survivor to notice says which rank was lost.
    reasons = [l.split("job failed:", 1)[1] for l in run.err.splitlines() if "job failed:" in l]
    if not any(re.search(rf"rank {r}(\D|$)", l) for l in reasons for r in victims):
        return f"the failure {reasons[-1:]} does not name rank(s) {sorted(victims)}"
    return None


def main():
    args = parse_args()
    base = Run(args, restarts=False).execute()
    if base.rc != 0 or base.digest is None:
        print(f"reference run failed: exit {base.rc}, digest {base.digest}")
        print(base.out[-3000:], base.err[-3000:], sep="\n")
        return 1
    print(f"reference: digest {base.digest}, {base.seconds:.2f} s, {base.rounds_seen + 1} "
          f"progress rounds, {args.workers} workers", flush=True)
    failures = 0
    for i in range(args.trials):
        rng = random.Random(args.seed * 100003 + i)
        faults, extra, what = plan_trial(args, i, rng, base)
        run = Run(args, extra_args=extra, faults=faults).execute()
        problem = judge(args, run, base.digest)
        injected = "; ".join(f"{name} rank {r} at {t}s" + ("" if pid else " (already gone)")
                             for t, name, r, pid in run.injected) or "-"
        status = "ok" if problem is None else "FAIL: " + problem
        restarts = len(re.findall(r"exited with code \d+; restart", run.err))
        epochs = len(re.findall(r"recovery epoch \d+: all", run.err))
        print(f"trial {i} ({what}): injected [{injected}] -> exit {run.rc}, "
              f"{run.seconds:.2f} s, {restarts} restart(s), {epochs} recovery epoch(s), {status}",
              flush=True)
        if problem is not None:
            failures += 1
            if not args.quiet:
                print("----- stdout (tail) -----\n" + run.out[-2000:])
                print("----- stderr (tail) -----\n" + run.err[-4000:], flush=True)
    print(f"{args.trials - failures}/{args.trials} trials ended as expected ({args.expect})")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
