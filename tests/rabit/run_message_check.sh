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
# shellcheck source=rank_job.sh
source "$(dirname "$0")/rank_job.sh"

case $mode in
  submit)
    submit_ok -- "$check"
    ;;
  robust)
    submit_ok --local-num-attempt 1 -- "$check" check_mode=robust
    ;;
  mpirun)
    mpirun_ok
    ;;
  kill)
    submit_fails_fast \
      "rank 1 closed its message link|\[rank 1\] exited with code|job failed: rank 1 failed"
    ;;
  *) echo "unknown mode $mode"; exit 2 ;;
esac
echo "ok ($mode, N=$n)"
