#!/usr/bin/env bash
# Allreduce (float sum) of treering's socket engine vs Open MPI over TCP on loopback, 2 and 4
# ranks, 4 B .. 64 MiB, run round-robin ROUNDS times; prints per size the median over rounds of
# each side's median call time, algbw and the ratios. Both sides use bench/comm/allreduce_timing.h.
#   usage: bench/comm/allreduce_bench.sh [BUILD_DIR=build] [ROUNDS=3] [extra rabit k=v ...]
# A/B of two treering builds in the same run: BASE=OTHER_BUILD_DIR adds that build's
# rabit_allreduce_bench as a third side ("base", same rabit args), interleaved with the others.
# NP="2 4" (default) chooses the world sizes.
# Placement: mpirun binds each rank to a core when np <= cores and binds nothing when
# oversubscribed; treering-submit does the same by default (--bind-to core) and then has a
# 2-rank job use the pair exchange at every size. BIND=none runs ours with --bind-to none
# (mpirun unchanged: unbound, its np=2 ranks would busy-poll without yielding).
# Open MPI runs with the glibc malloc tunables that stop it page-faulting a fresh temporary buffer
# on every call >= 32 MiB (shared/reference/comm-anchors.md, finding 1); set MPI_MALLOC=default
# to measure it with glibc's defaults instead.
set -euo pipefail
build=${1:-build}
rounds=${2:-3}
shift $(( $# < 2 ? $# : 2 ))
extra=("$@")
ours=$build/bin/rabit_allreduce_bench
theirs=$build/bin/mpi_allreduce_bench
submit=$build/bin/treering-submit
base=${BASE:+$BASE/bin/rabit_allreduce_bench}
nps=${NP:-2 4}
for f in "$ours" "$theirs" "$submit" ${base:+"$base"}; do
  [ -x "$f" ] || { echo "missing $f (build targets rabit_allreduce_bench mpi_allreduce_bench treering-submit)"; exit 2; }
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tunables=glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=4294967296
[ "${MPI_MALLOC:-tunables}" = default ] && tunables=
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

run_ours() {  # np round [binary side]
  local bind=core
  [ "${BIND:-core}" = none ] && bind=none
  "$submit" --cluster local --num-workers "$1" --bind-to "$bind" -- "${3:-$ours}" "${extra[@]}" 2>&1 \
    | sed -n 's/^\[rank 0\] \([0-9]\)/\1/p' > "$out/${4:-ours}.$1.$2"
}
run_mpi() {  # np round
  env ${tunables:+GLIBC_TUNABLES=$tunables} mpirun --oversubscribe -np "$1" \
    --mca btl tcp,self --mca btl_tcp_if_include lo "$theirs" 2>&1 | grep -E '^[0-9]' > "$out/mpi.$1.$2"
}

for np in $nps; do
  for ((r = 1; r <= rounds; r++)); do
    run_ours "$np" "$r"
    run_mpi "$np" "$r"
    if [ -n "$base" ]; then run_ours "$np" "$r" "$base" base; fi
  done
done

echo "# $(date -u +%FT%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg); rounds=$rounds; rabit args: ${extra[*]:-(defaults)}"
echo "# Open MPI: --mca btl tcp,self --mca btl_tcp_if_include lo, malloc: ${tunables:-glibc defaults}"
echo "# base (A/B) build: ${BASE:-none}; treering-submit --bind-to ${BIND:-core} (pins when np <= $(nproc) cores)"
for np in $nps; do
  echo
  echo "np=$np"
  printf "%10s %12s %12s %10s %10s %9s %9s%s\n" bytes ours_us mpi_us ours_GBps mpi_GBps t_ratio \
    bw_ratio "${base:+     base_us base/ours}"
  cat "$out"/ours."$np".* | awk '{print "ours", $1, $3}' > "$out/all.$np"
  cat "$out"/mpi."$np".* | awk '{print "mpi", $1, $3}' >> "$out/all.$np"
  if [ -n "$base" ]; then
    cat "$out"/base."$np".* | awk '{print "base", $1, $3}' >> "$out/all.$np"
  fi
  # Median over rounds per (side, size), then the side-by-side row.
  sort -k1,1 -k2,2n -k3,3g "$out/all.$np" | awk '
    { key = $1 " " $2; v[key, ++n[key]] = $3; sizes[$2] = 1 }
    END {
      for (k in n) { m = n[k]; med[k] = (m % 2) ? v[k, (m + 1) / 2] : (v[k, m / 2] + v[k, m / 2 + 1]) / 2 }
      for (s in sizes) {
        o = med["ours " s]; p = med["mpi " s]
        if (o == "" || p == "") continue
        printf "%10d %12.2f %12.2f %10.4f %10.4f %9.2f %9.2f", s, o, p, s / o / 1e3, s / p / 1e3, o / p, p / o
        b = med["base " s]
        if (b != "") printf " %11.2f %9.2f", b, b / o
        printf "\n"
      }
    }' | sort -n
done
echo
echo "# t_ratio = ours/MPI median time (latency goal at 4 B: <= 1.2); bw_ratio = MPI time/ours"
echo "# (bandwidth goal at >= 1 MiB: >= 1.0). GB/s = 1e9 B/s of message bytes (algbw)."
