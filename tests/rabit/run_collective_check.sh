#!/usr/bin/env bash
# Runs collective_check as a real multi-process job and checks what every rank reported.
# usage: run_collective_check.sh BUILD_DIR MODE N
#   submit  treering-submit --cluster local (socket engine): every rank prints "rank R ok"
#   mpirun  mpirun over TCP (MPI engine): every rank prints "rank R ok"
#   kill    rank 1 SIGKILLs itself mid-job: the job fails fast, naming rank 1
#   stop    rank 1 SIGSTOPs itself mid-job: the job fails within 2 x rabit_timeout (3 s) +
#           margin; a survivor's timeout names rank 1 as the rank that never started the op
set -uo pipefail
build=$1 mode=$2 n=$3
check=$build/tests/collective_check
submit=$build/bin/treering-submit
log=$(mktemp)
trap 'rm -f "$log"' EXIT

fail() { echo "FAIL ($mode, N=$n): $*"; echo "----- job output -----"; cat "$log"; exit 1; }

expect_every_rank_ok() {
  for ((r = 0; r < n; r++)); do
    grep -q "rank $r ok" "$log" || fail "no 'rank $r ok' line"
  done
}

# TrackerPrint from ranks other than 0 comes out once, prefixed, as the tracker prints it.
expect_prefixed_prints() {
  for ((r = 1; r < n; r++)); do
    [ "$(grep -cx "\[rank $r\] collective_check: a print from rank $r" "$log")" = 1 ] ||
      fail "rank $r's TrackerPrint is not forwarded once as '[rank $r] ...'"
  done
}

case $mode in
  submit)
    timeout 240 "$submit" --cluster local --num-workers "$n" -- "$check" >"$log" 2>&1
    rc=$?
    [ $rc -eq 0 ] || fail "exit code $rc"
    expect_every_rank_ok
    grep -q "collective_check: $n ranks agree" "$log" || fail "rank 0's TrackerPrint missing"
    expect_prefixed_prints
    ;;
  mpirun)
    if ! command -v mpirun >/dev/null; then
      echo "SKIP: mpirun (the peer, Debian package openmpi-bin) is not on PATH"
      exit 77
    fi
    timeout 240 mpirun --allow-run-as-root --oversubscribe -np "$n" \
      --mca btl tcp,self --mca btl_tcp_if_include lo "$check" >"$log" 2>&1
    rc=$?
    [ $rc -eq 0 ] || fail "exit code $rc"
    expect_every_rank_ok
    grep -qx "collective_check: $n ranks agree" "$log" || fail "rank 0's TrackerPrint missing"
    expect_prefixed_prints
    ;;
  kill|stop)
    start=$(date +%s)
    timeout 100 "$submit" --cluster local --num-workers "$n" --grace 1 -- "$check" \
      check_fault="$mode" check_victim=1 check_fault_op=25 rabit_timeout=3 >"$log" 2>&1
    rc=$?
    elapsed=$(( $(date +%s) - start ))
    [ $rc -ne 0 ] || fail "the job succeeded although rank 1 was ${mode}ped"
    [ $rc -ne 124 ] || fail "the job hung (killed by timeout after 100 s)"
    [ $elapsed -le 30 ] || fail "the job took $elapsed s to fail (rabit_timeout=3)"
    grep -q "rank 1 injecting $mode" "$log" || fail "the fault was not injected"
    # The job's failure names rank 1: the first survivor to notice says so (killed: "link to
    # rank 1 failed", frozen: "rank 1 never started this op") or, when the launcher sees the
    # killed process first, its "[rank 1] exited" line does; when the tracker sees rank 1's
    # connection drop first, its "job failed: rank 1 failed" line does. The launcher then stops the other
    # survivors itself, so not every one of them gets to print its own error.
    case $mode in
      kill) cause="rank [02-9] failed: .*rank 1([^0-9]|$)|\[rank 1\] exited with code|job failed: rank 1 failed" ;;
      stop) cause="rank 1 never started this op" ;;
    esac
    grep -E "$cause" "$log" >/dev/null || fail "no message names rank 1 as the cause"
    grep -E "job failed" "$log" >/dev/null || fail "the launcher did not report a failed job"
    if grep -E "rank [0-9]+ ok" "$log"; then fail "a rank finished although rank 1 was lost"; fi
    ;;
  *) echo "unknown mode $mode"; exit 2 ;;
esac
echo "ok ($mode, N=$n)"
