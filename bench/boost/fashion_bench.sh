#!/usr/bin/env bash
# Fashion-MNIST accuracy at a time budget (issue 19 item 1): the XGBoost CLI's 50 rounds
# (../shared/bench/xgb/fashion.conf) against treering on the same config (defaults, the
# XGBoost-compatible model) and treering on bench/boost/fashion_lgb.conf (the accuracy config),
# alternating runs after one warm-up of each so all three share the page cache and the load.
#
# usage: bench/boost/fashion_bench.sh [-- key=value ...]   (run from anywhere)
#   key=value  appended to the fashion_lgb run only (e.g. num_round=45 to try a budget)
#   REPEATS=3  WARMUP=1 (0: no warm-up runs)  TARGET=0.8914  TREERING=build/bin/treering
#   CONF=bench/boost/fashion_lgb.conf (the accuracy config; fashion_fast.conf: the fast one)
#   ROUNDS=N  num_round for all three programs (a per-round ratio when 50 rounds cannot run)
#   BENCH_OUT=bench/out (the directory with fashion.{train,test}.libsvm)
# Prints per program the median wall time, its CPU time (user + sys: less bent by other load
# than the wall), the final test accuracy (1 - merror), both ratios to XGBoost's, and the first
# round at which the test accuracy reaches TARGET with the seconds elapsed then (from the
# verbosity=2 "boosting round i, T sec elapsed" lines, setup not counted), and the 1-minute
# load average before and after: on a shared machine the ratio from one script run is what
# counts, not the absolute seconds.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${BENCH_OUT:-$root/bench/out}
xgb_conf=$root/../shared/bench/xgb/fashion.conf
lgb_conf=$(realpath "${CONF:-$root/bench/boost/fashion_lgb.conf}")
repeats=${REPEATS:-3}
warmup=${WARMUP:-1}
target=${TARGET:-0.8914}
treering=$(realpath "${TREERING:-$root/build/bin/treering}")
extra=()
rounds=()
[ -n "${ROUNDS:-}" ] && rounds=("num_round=$ROUNDS")
if (($#)); then
  [ "$1" = "--" ] || { echo "usage: $0 [-- key=value ...]" >&2; exit 2; }
  shift; extra=("$@")
fi
[ -x "$treering" ] || { echo "no $treering: build the treering target" >&2; exit 1; }
[ -f "$xgb_conf" ] || { echo "no $xgb_conf: shared/ must be beside the repository" >&2; exit 1; }
command -v xgboost > /dev/null || { echo "no xgboost CLI on PATH" >&2; exit 77; }
if [ ! -s "$out/fashion.train.libsvm" ]; then
  mkdir -p "$out"
  /usr/bin/python3 "$root/../shared/bench/data/fashion_mnist_to_libsvm.py" "$out"
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# $1 = name (xgboost | treering | treering_lgb); prints "wall cpu accuracy target_round target_s"
run_one() {
  local log=$scratch/$1.log
  local cmd=(xgboost "$xgb_conf" "${rounds[@]}")
  case $1 in
    treering) cmd=("$treering" "$xgb_conf" "${rounds[@]}") ;;
    treering_lgb) cmd=("$treering" "$lgb_conf" "${rounds[@]}" "${extra[@]}") ;;
  esac
  (cd "$out" && /usr/bin/time -v "${cmd[@]}" model_out="$scratch/$1.model" verbosity=2 \
     > "$log" 2>&1) || { echo "$1 failed:" >&2; tail -5 "$log" >&2; exit 1; }
  # accuracy after round i is printed before "boosting round i+1"; the round's end time is
  # the next round's start (the last round's: the wall time, which adds the model save)
  awk -v t="$target" '
    /Elapsed \(wall/ {split($8, c, ":"); wall = c[1] * 60 + c[2]}
    /User time/ {cpu += $4} /System time/ {cpu += $4}
    match($0, /boosting round [0-9]+, [0-9.eE+-]+ sec/) {
      split(substr($0, RSTART, RLENGTH), b, /[ ,]+/); start[b[3] + 0] = b[4] + 0
    }
    /test-merror:/ {
      match($0, /test-merror:[0-9.eE+-]*/); m = substr($0, RSTART + 12, RLENGTH - 12)
      match($0, /\[[0-9]+\]\t/); r = substr($0, RSTART + 1, RLENGTH - 3) + 0; acc = 1 - m
      if (hit == "" && acc >= t) hit = r
    }
    END {
      ts = "-"
      if (hit != "") ts = (hit + 1 in start) ? sprintf("%.2f", start[hit + 1]) : "end"
      printf "%.2f %.2f %.4f %s %s\n", wall, cpu, acc, (hit == "" ? "-" : hit + 1), ts
    }' "$log"
}

median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

names=(xgboost treering treering_lgb)
load0=$(cut -d' ' -f1 /proc/loadavg)
if [ "$warmup" = 1 ]; then
  for n in "${names[@]}"; do run_one "$n" > /dev/null; done
fi
declare -A walls cpus res
for ((i = 0; i < repeats; i++)); do
  for n in "${names[@]}"; do
    read -r w c a hr hs < <(run_one "$n")
    walls[$n]+="$w "; cpus[$n]+="$c "
    res[$n]="$a $hr $hs"
  done
done
load1=$(cut -d' ' -f1 /proc/loadavg)
xw=$(echo "${walls[xgboost]}" | median); xc=$(echo "${cpus[xgboost]}" | median)
echo "Fashion-MNIST (median of $repeats; load average $load0 before, $load1 after;" \
  "treering_lgb: ${lgb_conf#"$root"/} ${extra[*]})"
for n in "${names[@]}"; do
  w=$(echo "${walls[$n]}" | median); c=$(echo "${cpus[$n]}" | median)
  read -r a hr hs <<< "${res[$n]}"
  awk -v n="$n" -v w="$w" -v c="$c" -v xw="$xw" -v xc="$xc" -v a="$a" -v hr="$hr" -v hs="$hs" \
      -v t="$target" 'BEGIN {
    printf "  %-13s wall %7.2f s (x%.2f)  cpu %7.2f s (x%.2f)  accuracy %.4f", n, w, w / xw, c, c / xc, a
    printf "  >= %s at round %s (%s s)\n", t, hr, hs
  }'
done
