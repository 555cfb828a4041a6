#!/usr/bin/env bash
# Runs "$@" bound to one CPU chosen by the worker's task id (DMLC_TASK_ID, set by
# treering-submit), as mpirun binds its ranks by default when they fit the cores (np <= cores:
# --bind-to core; it binds nothing when oversubscribed). allreduce_bench.sh uses it so both
# engines run with the same placement: unbound, the scheduler tends to put two ping-ponging
# ranks on one core (wake-affine), which costs ~3x at 4 B on this 2-core VM
# (docs/benchmarks.md, Collectives).
set -euo pipefail
exec taskset -c "$(( ${DMLC_TASK_ID:-0} % $(nproc) ))" "$@"
