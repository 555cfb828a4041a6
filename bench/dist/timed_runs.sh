# shellcheck shell=bash disable=SC2034,SC2154  # root: set by the caller; the rest: used there
# Sourced by dist_bench.sh and hist_sync_modes.sh: the one way both launch a configuration and
# read its timing. The caller sets root (the repository) before sourcing; TREERING, SUBMIT and
# REPEATS override the binaries and the number of interleaved repeats.
out=${OUT:-$root/bench/out}
treering=$(realpath "${TREERING:-$root/build/bin/treering}")
submit=$(realpath "${SUBMIT:-$root/build/bin/treering-submit}")
repeats=${REPEATS:-3}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# timed_run NAME COMMAND...: runs COMMAND in bench/out (where the configs' relative data paths
# point) with its output in $scratch/NAME.log and prints its wall seconds; a failed run shows
# the log's tail and ends the benchmark.
timed_run() {
  local name=$1 t0 t1
  shift
  t0=$(date +%s.%N)
  (cd "$out" && "$@" >"$scratch/$name.log" 2>&1) ||
    { echo "$name failed:" >&2; tail -5 "$scratch/$name.log" >&2; exit 1; }
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f\n", b - a}'
}

# timing_fields LOG: "rounds_s T_comp T_sync T_sync/T_comp bytes-per-round" from the timing
# report in LOG; fails when LOG has none.
timing_fields() {
  grep -o 'timing: [0-9]* rounds on.*' "$1" | head -1 |
    sed -E 's/.* in ([0-9.]+) s; .*T_comp ([0-9.]+) s, T_sync ([0-9.]+) s, T_sync\/T_comp ([0-9.]+), ([0-9]+) bytes.*/\1 \2 \3 \4 \5/'
}

median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{v[NR]=$1} END {print (NR ? v[int((NR+1)/2)] : "-")}'; }
