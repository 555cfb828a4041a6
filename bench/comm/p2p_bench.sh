#!/usr/bin/env bash
# Ping-pong (Send/Recv) and Reduce / Gather / Scatter of treering's socket engine vs Open MPI over
# TCP on loopback, run round-robin ROUNDS times; prints per benchmark and size the median over
# rounds of each side's median call time, GB/s and the ratios. Both sides use
# bench/comm/p2p_timing.h (which uses allreduce_timing.h's MeasureEach): ping-pong reports the
# one-way time (half the round trip).
#   usage: bench/comm/p2p_bench.sh [BUILD_DIR=build] [ROUNDS=3] [extra rabit k=v ...]
# BENCHES="pingpong:2 reduce:4 gather:4 scatter:4" (default) chooses benchmark:np pairs.
# Placement as allreduce_bench.sh: treering-submit --bind-to core, mpirun's default binding.
# BIND=none (or core) passes --bind-to to both launchers (unset: each launcher's default): on a
# loaded host a pinned rank that sleeps waits for its own core (docs/benchmarks.md).
# RUN_PREFIX="chrt -f 10" runs both sides (launchers and ranks) under that prefix: on a machine
# shared with other jobs, real-time priority keeps their load from deciding the numbers (the
# ratio is still only meaningful with both sides measured in the same run).
set -euo pipefail
build=${1:-build}
rounds=${2:-3}
shift $(( $# < 2 ? $# : 2 ))
extra=("$@")
ours=$build/bin/rabit_p2p_bench
theirs=$build/bin/mpi_p2p_bench
submit=$build/bin/treering-submit
benches=${BENCHES:-pingpong:2 reduce:4 gather:4 scatter:4}
prefix=${RUN_PREFIX:-}
bind=()
[ -n "${BIND:-}" ] && bind=(--bind-to "$BIND")
for f in "$ours" "$theirs" "$submit"; do
  [ -x "$f" ] || { echo "missing $f (build targets rabit_p2p_bench mpi_p2p_bench treering-submit)"; exit 2; }
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

for bench in $benches; do
  what=${bench%:*} np=${bench#*:}
  for ((r = 1; r <= rounds; r++)); do
    $prefix "$submit" --cluster local --num-workers "$np" "${bind[@]}" -- "$ours" "$what" "${extra[@]}" 2>&1 \
      | sed -n 's/^\[rank 0\] \([0-9]\)/\1/p' > "$out/ours.$what.$r"
    $prefix mpirun "${bind[@]}" --oversubscribe -np "$np" --mca btl tcp,self --mca btl_tcp_if_include lo \
      "$theirs" "$what" 2>&1 | grep -E '^[0-9]' > "$out/mpi.$what.$r"
  done
done

echo "# $(date -u +%FT%TZ) load: $(cut -d' ' -f1-3 /proc/loadavg); rounds=$rounds; rabit args: ${extra[*]:-(defaults)}; prefix: ${prefix:-(none)}; bind: ${BIND:-(launcher defaults)}"
echo "# Open MPI: --mca btl tcp,self --mca btl_tcp_if_include lo; placement: ${bind[*]:-treering-submit --bind-to core, mpirun default binding}"
for bench in $benches; do
  what=${bench%:*} np=${bench#*:}
  echo
  echo "$what np=$np"
  printf "%10s %12s %12s %10s %10s %9s %9s %9s\n" bytes ours_us mpi_us ours_GBps mpi_GBps t_ratio \
    bw_ratio paired_bw
  { cat "$out"/ours."$what".* | awk '{print "ours", $1, $3}'
    cat "$out"/mpi."$what".* | awk '{print "mpi", $1, $3}'
    # paired_bw: the median over rounds of Open MPI's time / ours in the same round. The VM
    # switches between a fast and a half-speed copy mode for tens of seconds at a time, for
    # both programs (docs/benchmarks.md, 2026-11-28): a round's two runs share a mode far more
    # often than the medians of all rounds do.
    for ((r = 1; r <= rounds; r++)); do
      awk -v r="$r" 'NR == FNR {t[$1] = $3; next} ($1 in t) {print "pair", $1, $3 / t[$1]}' \
        "$out/ours.$what.$r" "$out/mpi.$what.$r"
    done; } > "$out/all.$what"
  sort -k1,1 -k2,2n -k3,3g "$out/all.$what" | awk '
    { key = $1 " " $2; v[key, ++n[key]] = $3; sizes[$2] = 1 }
    END {
      for (k in n) { m = n[k]; med[k] = (m % 2) ? v[k, (m + 1) / 2] : (v[k, m / 2] + v[k, m / 2 + 1]) / 2 }
      for (s in sizes) {
        o = med["ours " s]; p = med["mpi " s]; q = med["pair " s]
        if (o == "" || p == "") continue
        printf "%10d %12.2f %12.2f %10.4f %10.4f %9.2f %9.2f %9.2f\n", s, o, p, s / o / 1e3, s / p / 1e3, o / p, p / o, q
      }
    }' | sort -n
done
echo
echo "# t_ratio = ours/MPI median time (ping-pong latency goal at 4 B: <= 1.2); bw_ratio = MPI"
echo "# time/ours (bandwidth goal from 1 MiB: >= 1.0); paired_bw = median over rounds of that"
echo "# ratio within each round. GB/s = 1e9 B/s of message bytes."
