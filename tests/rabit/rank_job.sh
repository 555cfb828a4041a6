# shellcheck shell=bash disable=SC2154  # build, mode, n, check: set by the sourcing script
# Sourced by run_collective_check.sh and run_message_check.sh: the one way both run a check
# binary as a multi-process job (treering-submit or mpirun, loopback only, bounded by timeout)
# and judge what its ranks printed. A check binary prints "rank R ok" on every rank that passed.
# The caller sets build, mode, n (world size) and check (the binary's path) before sourcing.
submit=$build/bin/treering-submit
log=$(mktemp)
trap 'rm -f "$log"' EXIT

fail() { echo "FAIL ($mode, N=$n): $*"; echo "----- job output -----"; cat "$log"; exit 1; }

expect_every_rank_ok() {
  for ((r = 0; r < n; r++)); do
    grep -q "rank $r ok" "$log" || fail "no 'rank $r ok' line"
  done
}

# submit_ok [SUBMIT_OPTION...] -- CHECK [KEY=VALUE...]: the job under treering-submit exits 0
# and every rank passed.
submit_ok() {
  timeout 240 "$submit" --cluster local --num-workers "$n" "$@" >"$log" 2>&1
  local rc=$?
  [ $rc -eq 0 ] || fail "exit code $rc"
  expect_every_rank_ok
}

# mpirun_ok: the same under Open MPI over TCP on loopback (the MPI engine); skips (exit 77)
# without mpirun.
mpirun_ok() {
  if ! command -v mpirun >/dev/null; then
    echo "SKIP: mpirun (the peer, Debian package openmpi-bin) is not on PATH"
    exit 77
  fi
  timeout 240 mpirun --allow-run-as-root --oversubscribe -np "$n" \
    --mca btl tcp,self --mca btl_tcp_if_include lo "$check" >"$log" 2>&1
  local rc=$?
  [ $rc -eq 0 ] || fail "exit code $rc"
  expect_every_rank_ok
}

# submit_fails_fast CAUSE [KEY=VALUE...]: rank 1 injects fault $mode (kill or stop) with
# rabit_timeout=3; the job must fail, within 30 s, with a line matching the extended regex
# CAUSE (which names rank 1), and no rank may report success.
submit_fails_fast() {
  local cause=$1 lost start rc elapsed
  shift
  case $mode in
    kill) lost=killed ;;
    stop) lost=stopped ;;
    *) lost=$mode ;;
  esac
  start=$(date +%s)
  timeout 100 "$submit" --cluster local --num-workers "$n" --grace 1 -- "$check" \
    check_fault="$mode" check_victim=1 "$@" rabit_timeout=3 >"$log" 2>&1
  rc=$?
  elapsed=$(($(date +%s) - start))
  [ $rc -ne 0 ] || fail "the job succeeded although rank 1 was $lost"
  [ $rc -ne 124 ] || fail "the job hung (killed by timeout after 100 s)"
  [ $elapsed -le 30 ] || fail "the job took $elapsed s to fail (rabit_timeout=3)"
  grep -q "rank 1 injecting $mode" "$log" || fail "the fault was not injected"
  grep -E "$cause" "$log" >/dev/null || fail "no message names rank 1 as the cause"
  if grep -E "rank [0-9]+ ok" "$log"; then fail "a rank finished although rank 1 was lost"; fi
}
