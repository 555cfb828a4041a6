#!/usr/bin/env bash
# Allreduce (float sum) of treering's socket engine vs Open MPI over TCP on loopback, 2 to 8
# ranks, 4 B .. 64 MiB, run round-robin ROUNDS times; prints per size the median over rounds of
# each side's median call time, algbw and the ratios, and which algorithm treering's cost model
# picked (rabit_allreduce=auto). Both sides use bench/comm/allreduce_timing.h.
#   usage: bench/comm/allreduce_bench.sh [BUILD_DIR=build] [ROUNDS=3] [extra rabit k=v ...]
# (e.g. rabit_allreduce=ring to force one algorithm, rabit_link_latency_us=50 to change the model)
# A/B of two treering builds in the same run: BASE=OTHER_BUILD_DIR adds that build's
# rabit_allreduce_bench as a third side ("base", same rabit args), interleaved with the others.
# NP="2 3 4 5 6 7 8" (default) chooses the world sizes, SIZES="4 1048576" the message sizes
# (default: the timing header's 4 B .. 64 MiB).
# Placement: mpirun binds each rank to a core when np <= cores and binds nothing when
# oversubscribed; treering-submit does the same by default (--bind-to core). On a 2-core machine
# every world above 2 is oversubscribed on both sides, so those rows measure scheduling as much as
# the algorithms. BIND=none runs ours with --bind-to none (mpirun unchanged: unbound, its np=2
# ranks would busy-poll without yielding).
# PREFIX="chrt -f 10" runs every launcher (ours, base and mpirun) under that command: on a machine
# shared with other jobs, real-time priority keeps their load out of both sides' timings (as
# bench/comm/p2p_ab.sh does); default none.
# Open MPI runs with the glibc malloc tunables that stop it page-faulting a fresh temporary buffer
# on every call >= 32 MiB (shared/reference/comm-anchors.md, finding 1); set MPI_MALLOC=default
# to measure it with glibc's defaults instead.
set -euo pipefail
. "$(dirname "$0")/allreduce_report.sh"
build=${1:-build}
rounds=${2:-3}
shift $(( $# < 2 ? $# : 2 ))
extra=("$@")
ours=$build/bin/rabit_allreduce_bench
theirs=$build/bin/mpi_allreduce_bench
choice=$build/bin/rabit_allreduce_choice
submit=$build/bin/treering-submit
base=${BASE:+$BASE/bin/rabit_allreduce_bench}
nps=${NP:-2 3 4 5 6 7 8}
read -r -a sizes <<< "${SIZES:-}"
for f in "$ours" "$theirs" "$submit" "$choice" ${base:+"$base"}; do
  [ -x "$f" ] || { echo "missing $f (build targets rabit_allreduce_bench mpi_allreduce_bench rabit_allreduce_choice treering-submit)"; exit 2; }
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tunables=glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=4294967296
[ "${MPI_MALLOC:-tunables}" = default ] && tunables=
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

run_ours() {  # np round [binary side]
  local bind=core
  [ "${BIND:-core}" = none ] && bind=none
  ${PREFIX:-} "$submit" --cluster local --num-workers "$1" --bind-to "$bind" -- "${3:-$ours}" "${sizes[@]}" "${extra[@]}" 2>&1 \
    | sed -n 's/^\[rank 0\] \([0-9]\)/\1/p' > "$out/${4:-ours}.$1.$2"
}
# MPI_BTL=vader,self runs Open MPI over its shared-memory transport (vader, with CMA single-copy
# reads for large messages) instead of TCP: the peer for ranks of one machine that read each
# other's memory (docs/collectives.md, "Two ranks on one machine").
mpi_btl=(--mca btl "${MPI_BTL:-tcp,self}")
[ "${MPI_BTL:-tcp,self}" = "tcp,self" ] && mpi_btl+=(--mca btl_tcp_if_include lo)
run_mpi() {  # np round
  env ${tunables:+GLIBC_TUNABLES=$tunables} ${PREFIX:-} mpirun --oversubscribe -np "$1" \
    "${mpi_btl[@]}" "$theirs" "${sizes[@]}" 2>&1 | grep -E '^[0-9]' > "$out/mpi.$1.$2"
}

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
for np in $nps; do
  for ((r = 1; r <= rounds; r++)); do
    run_ours "$np" "$r"
    run_mpi "$np" "$r"
    if [ -n "$base" ]; then run_ours "$np" "$r" "$base" base; fi
  done
done

echo "# $(date -u +%FT%TZ) load at start: $load_start, at end: $(cut -d' ' -f1-3 /proc/loadavg); rounds=$rounds; rabit args: ${extra[*]:-(defaults)}"
echo "# Open MPI: ${mpi_btl[*]}, malloc: ${tunables:-glibc defaults}"
echo "# launcher prefix: ${PREFIX:-none}"
echo "# base (A/B) build: ${BASE:-none}; treering-submit --bind-to ${BIND:-core} (pins when np <= $(nproc) cores)"
echo "# $(nproc) cores: worlds above $(nproc) ranks are oversubscribed on both sides"
for np in $nps; do
  "$choice" "$np" "${sizes[@]}" "${extra[@]}" > "$out/choice.$np"
  allreduce_report "$out" "$np" "$base"
done
echo
echo "# t_ratio = ours/MPI median time (latency goal at 4 B: <= 1.2); bw_ratio = MPI time/ours"
echo "# (bandwidth goal at >= 1 MiB: >= 1.0). GB/s = 1e9 B/s of message bytes (algbw)."
