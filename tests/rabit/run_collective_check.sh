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
# shellcheck source=rank_job.sh
source "$(dirname "$0")/rank_job.sh"

# TrackerPrint from ranks other than 0 comes out once, prefixed, as the tracker prints it.
expect_prefixed_prints() {
  for ((r = 1; r < n; r++)); do
    [ "$(grep -cx "\[rank $r\] collective_check: a print from rank $r" "$log")" = 1 ] ||
      fail "rank $r's TrackerPrint is not forwarded once as '[rank $r] ...'"
  done
}

case $mode in
  submit)
    submit_ok -- "$check"
    grep -q "collective_check: $n ranks agree" "$log" || fail "rank 0's TrackerPrint missing"
    expect_prefixed_prints
    ;;
  mpirun)
    mpirun_ok
    grep -qx "collective_check: $n ranks agree" "$log" || fail "rank 0's TrackerPrint missing"
    expect_prefixed_prints
    ;;
  kill|stop)
    # The job's failure names rank 1: the first survivor to notice says so (killed: "link to
    # rank 1 failed", frozen: "rank 1 never started this op") or, when the launcher sees the
    # killed process first, its "[rank 1] exited" line does; when the tracker sees rank 1's
    # connection drop first, its "job failed: rank 1 failed" line does. The launcher then stops the other
    # survivors itself, so not every one of them gets to print its own error.
    case $mode in
      kill) cause="rank [02-9] failed: .*rank 1([^0-9]|$)|\[rank 1\] exited with code|job failed: rank 1 failed" ;;
      stop) cause="rank 1 never started this op" ;;
    esac
    submit_fails_fast "$cause" check_fault_op=25
    grep -E "job failed" "$log" >/dev/null || fail "the launcher did not report a failed job"
    ;;
  *) echo "unknown mode $mode"; exit 2 ;;
esac
echo "ok ($mode, N=$n)"
