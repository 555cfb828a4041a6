#!/usr/bin/env bash
# Interleaved A/B of ping-pong builds against Open MPI, for changes to the message path: each
# round runs every config once (round-robin, so load drifts hit all alike) and the table gives,
# per config and size, every round's one-way median (us) sorted, and the load average of each run.
#   usage: bench/comm/p2p_ab.sh ROUNDS "SIZES" "label|BIN_DIR|ENV|rabit k=v" ...
#   label "mpi" runs BIN_DIR/mpi_p2p_bench under mpirun (--mca btl tcp,self on lo).
# Example (old build copied to /tmp/base/bin; the user buffer forced into a fresh mmap (page
# offset 16) or the heap):
#   M=GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072
#   H=GLIBC_TUNABLES=glibc.malloc.mmap_threshold=268435456
#   bench/comm/p2p_ab.sh 3 "1048576 4194304" "old|/tmp/base/bin|$M|" "new|build/bin|$M|" \
#     "old_heap|/tmp/base/bin|$H|" "new_heap|build/bin|$H|" "mpi|build/bin||"
# P2P_PAGE_OFFSET=N in a config's ENV puts both sides' buffers N bytes past a page boundary
# (p2p_timing.h). Under load the times hide the placement effect; bench/comm/p2p_copy_place.sh
# shows it directly (where each kernel copy ran, not how long it took).
# PREFIX (default "chrt -f 10") runs every launcher under it; PREFIX= for none.
set -euo pipefail
rounds=$1 sizes=$2
shift 2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
prefix=${PREFIX-chrt -f 10}
for ((r = 1; r <= rounds; r++)); do
  for cfg in "$@"; do
    IFS='|' read -r label bin envs args <<< "$cfg"
    load=$(cut -d' ' -f1 /proc/loadavg)
    if [ "$label" = mpi ]; then
      # shellcheck disable=SC2086
      env $envs $prefix mpirun --oversubscribe -np 2 --mca btl tcp,self --mca btl_tcp_if_include lo \
        "$bin/mpi_p2p_bench" pingpong $sizes 2>&1 | grep -E '^[0-9]' |
        awk -v l="$label" -v L="$load" '{print l, $1, $3, L}'
    else
      # shellcheck disable=SC2086
      env $envs $prefix "$bin/treering-submit" --cluster local --num-workers 2 -- \
        "$bin/rabit_p2p_bench" pingpong $sizes $args 2>&1 |
        sed -n 's/^\[rank 0\] \([0-9]\)/\1/p' | awk -v l="$label" -v L="$load" '{print l, $1, $3, L}'
    fi
  done
done | sort -k1,1 -k2,2n -k3,3g | awk '
  { k = $1 " " $2; v[k] = v[k] " " $3; ld[k] = ld[k] " " $4 }
  END { for (k in v) print k, "|", v[k], "| load", ld[k] }' | sort -k2,2n -k1,1
