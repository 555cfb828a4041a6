#!/usr/bin/env bash
# The tracker out of file descriptors (issue 16 item 5): under a low RLIMIT_NOFILE a flood of
# connections makes every accept() fail with EMFILE. The tracker must back off instead of
# spinning (little CPU, a bounded number of log lines), keep the worker it already has, and run
# the job to completion once the flood is gone.
# usage: fd_exhaustion_test.sh TREERING_TRACKER FAKE_WORKER
# Exit codes: 0 pass, 1 fail, 77 skipped (prlimit, from util-linux, is missing).
set -uo pipefail
TRACKER=$(realpath "$1") WORKER=$(realpath "$2")
if ! command -v prlimit >/dev/null; then
  echo "SKIP: prlimit (util-linux) is not installed: cannot lower the tracker's descriptor limit"
  exit 77
fi
WORK=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done
  rm -rf "$WORK"
}
trap cleanup EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# 24 descriptors: the tracker's own few, then about 15 connections.
prlimit --nofile=24:24 "$TRACKER" --num-workers 2 --token fd-test \
  >"$WORK/trk.out" 2>"$WORK/trk.err" &
trk=$!
pids+=("$trk")
for _ in $(seq 100); do grep -q DMLC_TRACKER_ENV_END "$WORK/trk.out" && break; sleep 0.1; done
env_lines=$(sed -n '/DMLC_TRACKER_ENV_START/,/DMLC_TRACKER_ENV_END/p' "$WORK/trk.out" | grep =)
port=$(sed -n 's/^DMLC_TRACKER_PORT=//p' <<<"$env_lines")
[ -n "$port" ] || { echo "FAIL: tracker did not start: $(cat "$WORK/trk.err")"; exit 1; }

# A real worker joins first; the tracker must keep serving it through the flood.
env $env_lines DMLC_TASK_ID=0 "$WORKER" >"$WORK/w0.out" 2>&1 &
w0=$!
pids+=("$w0")
sleep 0.3

# The flood: 200 silent connections held open for 4 s (bash's /dev/tcp, loopback only).
(
  for _ in $(seq 200); do exec {fd}<>"/dev/tcp/127.0.0.1/$port" || break; done
  sleep 4
) 2>/dev/null &
flood=$!
pids+=("$flood")
sleep 0.5
before=$(cpu_ticks "$trk")
sleep 3
after=$(cpu_ticks "$trk")
used=$((after - before))  # clock ticks, 100 per second
ticks_per_s=$(getconf CLK_TCK)
echo "tracker CPU during 3 s of EMFILE: $used ticks ($ticks_per_s per second)"
[ "$used" -le $((ticks_per_s * 3 / 10)) ] || fail "the tracker used $used ticks of CPU in 3 s (spinning)"
grep -q "accept failed: Too many open files" "$WORK/trk.err" \
  || fail "no EMFILE was ever hit (the limit did not bite): $(tail -3 "$WORK/trk.err")"
accept_lines=$(grep -c "accept failed" "$WORK/trk.err")
[ "$accept_lines" -le 3 ] || fail "$accept_lines 'accept failed' log lines in ~3.5 s (want <= 3)"

wait "$flood"
env $env_lines DMLC_TASK_ID=1 "$WORKER" >"$WORK/w1.out" 2>&1 &
pids+=("$!")
for _ in $(seq 300); do kill -0 "$trk" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$trk" 2>/dev/null; then
  fail "the job did not finish within 30 s of the flood ending: $(tail -5 "$WORK/trk.err")"
else
  wait "$trk"
  rc=$?
  [ "$rc" = 0 ] || fail "tracker exit code $rc: $(tail -5 "$WORK/trk.err")"
fi
wait "$w0"
grep -qx "rank=0 world=2" "$WORK/w0.out" || fail "the early worker lost its place: $(cat "$WORK/w0.out")"
grep -qx "rank=1 world=2" "$WORK/w1.out" || fail "the late worker: $(cat "$WORK/w1.out")"
echo "fd exhaustion test: $failures failure(s); $(wc -l <"$WORK/trk.err") tracker log lines"
[ "$failures" = 0 ]
