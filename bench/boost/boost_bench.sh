#!/usr/bin/env bash
# Boosting: treering against XGBoost 1.7's CLI on the same LibSVM files and the same configs
# (../shared/bench/xgb/<set>.conf, shared/ beside the repository), alternating runs after one
# warm-up of each, so both read from the page cache and share whatever load the machine has.
#
# usage: bench/boost/boost_bench.sh [SET...] [-- key=value ...]   (run from anywhere)
#   SET      higgs1m | reg1m | fashion (default: all three); data made in bench/out if absent
#            higgs10m: the higgs1m config on 10M rows, 20 rounds (setup-phase scaling); ~3.6 GB
#            of text made at run time, ~4 GB RAM per program: runs only with BENCH_10M=1
#   key=value  appended to both programs' command lines (e.g. num_round=20)
#   REPEATS=3  TREERING=build/bin/treering
# Prints per set: median wall, per-round time, test metric and peak RSS of both, and ratios.
# Per round: both CLIs run with verbosity=2 and print "boosting round i, T sec elapsed" before
# each round; per round = (T_last - T_1) / (last - 1), which leaves out round 0 (XGBoost
# sketches and bins inside its first round, treering before it) and the final save.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/bench/out
conf_dir=$root/../shared/bench/xgb
data_dir=$root/../shared/bench/data
py=/usr/bin/python3
repeats=${REPEATS:-3}
treering=$(realpath "${TREERING:-$root/build/bin/treering}")

sets=(); extra=()
while (($#)); do
  if [ "$1" = "--" ]; then shift; extra=("$@"); break; fi
  sets+=("$1"); shift
done
((${#sets[@]})) || sets=(higgs1m reg1m fashion)
if [ "${BENCH_10M:-0}" = 1 ]; then
  [[ " ${sets[*]} " == *" higgs10m "* ]] || sets+=(higgs10m)
else
  for s in "${sets[@]}"; do
    [ "$s" = higgs10m ] && echo "higgs10m skipped: set BENCH_10M=1 to run it (slow)" >&2
  done
  mapfile -t sets < <(printf '%s\n' "${sets[@]}" | grep -vx higgs10m || true)
fi
[ -x "$treering" ] || { echo "no $treering: build the treering target" >&2; exit 1; }
[ -d "$conf_dir" ] || { echo "no $conf_dir: shared/ must be beside the repository" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

make_data() {  # $1 = set
  [ -s "$out/$1.train.libsvm" ] && return
  mkdir -p "$out"
  echo "making $out/$1.{train,test}.libsvm" >&2
  case $1 in
    higgs1m) "$py" "$data_dir/make_synthetic.py" "$out" --rows 1000000 ;;
    higgs10m) "$py" "$data_dir/make_synthetic.py" "$out" --rows 10000000 ;;
    reg1m) "$py" "$data_dir/make_synthetic.py" "$out" --rows 1000000 --task reg ;;
    fashion) "$py" "$data_dir/fashion_mnist_to_libsvm.py" "$out" ;;
  esac
}

conf_value() { awk -F= -v k="$2" '$1 ~ "^ *"k" *$" {gsub(/[ "]/, "", $2); v=$2} END {print v}' "$1"; }

# Last printed value of the first metric of the "test" set in a log of round lines.
last_metric() { grep -o 'test-[a-z]*:[0-9.eE+-]*' "$1" | awk -F: -v m="$2" '$1 == "test-"m {v=$2} END {print v}'; }

run_one() {  # $1 = program (treering|xgboost) $2 = conf; prints "wall rss per_round"
  local log=$scratch/$1.log exe=xgboost
  [ "$1" = treering ] && exe=$treering
  (cd "$out" && /usr/bin/time -v "$exe" "$2" model_out="$scratch/$1.model" verbosity=2 \
     "${extra[@]}" > "$log" 2>&1) || { echo "$1 failed:" >&2; tail -5 "$log" >&2; exit 1; }
  echo "$(awk '/Elapsed \(wall/ {split($8, t, ":"); print t[1] * 60 + t[2]}' "$log") \
$(awk '/Maximum resident/ {print $6}' "$log") $(per_round "$log")"
}

per_round() {  # $1 = log with "boosting round i, T sec elapsed" lines
  sed -n 's/.*boosting round \([0-9]*\), \([0-9.eE+-]*\) sec elapsed.*/\1 \2/p' "$1" |
    awk '$1 >= 1 {if (!n++) {i0 = $1; t0 = $2} i = $1; t = $2} END {print (i > i0) ? (t - t0) / (i - i0) : 0}'
}

median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

for set in "${sets[@]}"; do
  make_data "$set"
  conf=$conf_dir/$set.conf
  if [ "$set" = higgs10m ]; then  # higgs1m's config on the 10M-row files, 20 rounds
    conf=$scratch/higgs10m.conf
    sed -e 's/higgs1m/higgs10m/g' -e 's/^num_round.*/num_round = 20/' \
      "$conf_dir/higgs1m.conf" > "$conf"
  fi
  metric=$(grep -E '^ *eval_metric' "$conf" | head -1 | tr -d ' "' | cut -d= -f2)
  run_one treering "$conf" > /dev/null; run_one xgboost "$conf" > /dev/null
  tw=(); tr_=(); tp=(); xw=(); xr=(); xp=()
  for ((i = 0; i < repeats; i++)); do
    read -r w r p < <(run_one treering "$conf"); tw+=("$w"); tr_+=("$r"); tp+=("$p")
    read -r w r p < <(run_one xgboost "$conf"); xw+=("$w"); xr+=("$r"); xp+=("$p")
  done
  t_metric=$(last_metric "$scratch/treering.log" "$metric")
  x_metric=$(last_metric "$scratch/xgboost.log" "$metric")
  t_round=$(echo "${tp[@]}" | median); x_round=$(echo "${xp[@]}" | median)
  t_wall=$(echo "${tw[@]}" | median); x_wall=$(echo "${xw[@]}" | median)
  t_rss=$(echo "${tr_[@]}" | median); x_rss=$(echo "${xr[@]}" | median)
  awk -v s="$set" -v m="$metric" -v tw="$t_wall" -v xw="$x_wall" -v tr="$t_round" -v xr="$x_round" \
      -v tm="$t_metric" -v xm="$x_metric" -v trss="$t_rss" -v xrss="$x_rss" -v n="$repeats" 'BEGIN {
    printf "%s (median of %d)\n", s, n
    printf "  wall      treering %7.2f s   xgboost %7.2f s   ratio %.2f\n", tw, xw, tw / xw
    printf "  per round treering %7.4f s   xgboost %7.4f s   ratio %.2f\n", tr, xr, tr / xr
    printf "  test-%s  treering %.6f   xgboost %.6f\n", m, tm, xm
    printf "  peak RSS  treering %7.0f MB  xgboost %7.0f MB  ratio %.2f\n", trss / 1024, xrss / 1024, trss / xrss
  }'
done
