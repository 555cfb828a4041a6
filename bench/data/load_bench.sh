#!/usr/bin/env bash
# Data loading: treering's loader (treering-data info) against XGBoost 1.7's own LibSVM loader
# (xgboost.DMatrix from python3-xgboost; its CLI cannot load without training) on the same
# file, alternating, after one warm-up run of each so both read from the page cache.
#
# usage: bench/data/load_bench.sh [FILE] [REPEATS]      (run from anywhere)
#   FILE     default bench/out/higgs1m.train.libsvm (made with make_synthetic.py if absent)
#   REPEATS  default 3
#   BIN=path/to/treering-data  (default build/bin/treering-data)   NTHREAD=2 (both loaders)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
file=${1:-$root/bench/out/higgs1m.train.libsvm}
repeats=${2:-3}
bin=${BIN:-$root/build/bin/treering-data}
nthread=${NTHREAD:-2}
py=/usr/bin/python3
synth=$root/../shared/bench/data/make_synthetic.py

if [ ! -s "$file" ]; then
  mkdir -p "$(dirname "$file")"
  echo "making $file"
  "$py" "$synth" "$(dirname "$file")" --rows 1000000
fi
[ -x "$bin" ] || { echo "no $bin: build the treering-data target first" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

run_treering() {  # prints "seconds rss_kb"
  /usr/bin/time -v "$bin" info "$file" --nthread "$nthread" > "$scratch/out" 2> "$scratch/time"
  echo "$(awk '/^load seconds:/ {print $3}' "$scratch/out") $(awk '/Maximum resident/ {print $6}' "$scratch/time")"
}

run_xgboost() {
  /usr/bin/time -v "$py" -c "
import time, xgboost
t = time.perf_counter()
d = xgboost.DMatrix('$file?format=libsvm', nthread=$nthread)
print('load seconds: %.3f rows %d' % (time.perf_counter() - t, d.num_row()))
" > "$scratch/out" 2> "$scratch/time"
  echo "$(awk '/^load seconds:/ {print $3}' "$scratch/out") $(awk '/Maximum resident/ {print $6}' "$scratch/time")"
}

xgboost_baseline_rss() {  # RSS of the interpreter with xgboost imported, nothing loaded
  /usr/bin/time -v "$py" -c "import xgboost" 2>&1 >/dev/null | awk '/Maximum resident/ {print $6}'
}

median() { tr ' ' '\n' | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

run_treering > /dev/null
run_xgboost > /dev/null
t_times=(); t_rss=(); x_times=(); x_rss=()
for ((i = 0; i < repeats; i++)); do
  read -r s r < <(run_treering); t_times+=("$s"); t_rss+=("$r")
  read -r s r < <(run_xgboost); x_times+=("$s"); x_rss+=("$r")
done

bytes=$(stat -c %s "$file")
matrix_bytes=$("$bin" info "$file" --nthread "$nthread" | awk '/^bytes:/ {print $2}')
t_med=$(echo "${t_times[@]}" | median); x_med=$(echo "${x_times[@]}" | median)
t_rss_med=$(echo "${t_rss[@]}" | median); x_rss_med=$(echo "${x_rss[@]}" | median)
x_base=$(xgboost_baseline_rss)
awk -v f="$file" -v b="$bytes" -v mb="$matrix_bytes" -v tm="$t_med" -v xm="$x_med" \
    -v tr="$t_rss_med" -v xr="$x_rss_med" -v xb="$x_base" -v n="$repeats" -v th="$nthread" \
    -v tt="${t_times[*]}" -v xt="${x_times[*]}" 'BEGIN {
  printf "file %s: %.1f MB, %d threads, median of %d (runs: treering %s | xgboost %s)\n", f, b/1e6, th, n, tt, xt
  printf "%-10s %10s %10s %14s\n", "loader", "seconds", "MB/s", "peak RSS MB"
  printf "%-10s %10.3f %10.1f %14.1f\n", "treering", tm, b/1e6/tm, tr/1024
  printf "%-10s %10.3f %10.1f %14.1f  (python+xgboost alone: %.1f MB)\n", "xgboost", xm, b/1e6/xm, xr/1024, xb/1024
  printf "speed ratio (xgboost seconds / treering seconds): %.2fx\n", xm/tm
  printf "treering peak RSS / DMatrix::Bytes() (%.1f MB): %.2f\n", mb/1e6, tr*1024/mb
}'
