#!/usr/bin/env bash
# Runs message_check as a real multi-process job and checks what every rank reported.
# usage: run_message_check.sh BUILD_DIR MODE N
#   submit  treering-submit --cluster local (socket engine): every rank prints "rank R ok"
#   mpirun  mpirun over TCP (MPI engine: Open MPI's own MPI_Send/Reduce/Gather/Scatter(v)
#           results checked against the same expectations); exit 77 (skip) without mpirun
#   robust  treering-submit with restarts on (robust engine): Send refused with a clear error,
#           Reduce/Gather/Scatter still right
#   kill    rank 1 SIGKILLs itself while rank 0 waits in Recv from it: the job fails fast and
#           a message names rank 1
set -uo pipefail
build=$1 mode=$2 n=$3
check=$build/tests/message_check
submit=$build/bin/treering-submit
log=$(mktemp)
trap 'rm -f "$log"' EXIT

fail() { echo "FAIL ($mode, N=$n): $*"; echo "----- job output -----"; cat "$log"; exit 1; }

expect_every_rank_ok() {
  for ((r = 0; r < n; r++)); do
    grep -q "rank $r ok" "$log" || fail "no 'rank $r ok' line"
  done
}

case $mode in
  submit)
    timeout 240 "$submit" --cluster local --num-workers "$n" -- "$check" >"$log" 2>&1
    rc=$?
    [ $rc -eq 0 ] || fail "exit code $rc"
    expect_every_rank_ok
    ;;
  robust)
    timeout 240 "$submit" --cluster local --num-workers "$n" --local-num-attempt 1 -- "$check" \
      check_mode=robust >"$log" 2>&1
    rc=$?
    [ $rc -eq 0 ] || fail "exit code $rc"
    expect_every_rank_ok
    ;;
  mpirun)
    if ! command -v mpirun >/dev/null; then echo "SKIP: mpirun not found"; exit 77; fi
    timeout 240 mpirun --allow-run-as-root --oversubscribe -np "$n" \
      --mca btl tcp,self --mca btl_tcp_if_include lo "$check" >"$log" 2>&1
    rc=$?
    [ $rc -eq 0 ] || fail "exit code $rc"
    expect_every_rank_ok
    ;;
  kill)
    start=$(date +%s)
    timeout 100 "$submit" --cluster local --num-workers "$n" --grace 1 -- "$check" \
      check_fault=kill check_victim=1 rabit_timeout=3 >"$log" 2>&1
    rc=$?
    elapsed=$(( $(date +%s) - start ))
    [ $rc -ne 0 ] || fail "the job succeeded although rank 1 was killed"
    [ $rc -ne 124 ] || fail "the job hung (killed by timeout after 100 s)"
    [ $elapsed -le 30 ] || fail "the job took $elapsed s to fail (rabit_timeout=3)"
    grep -q "rank 1 injecting kill" "$log" || fail "the fault was not injected"
    grep -E "rank 1 closed its message link|\[rank 1\] exited with code|job failed: rank 1 failed" \
      "$log" >/dev/null || fail "no message names rank 1 as the cause"
    if grep -E "rank [0-9]+ ok" "$log"; then fail "a rank finished although rank 1 was lost"; fi
    ;;
  *) echo "unknown mode $mode"; exit 2 ;;
esac
echo "ok ($mode, N=$n)"
