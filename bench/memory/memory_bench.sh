#!/usr/bin/env bash
# Memory: peak RSS and wall time of treering's CLI against XGBoost 1.7's CLI on the same
# LibSVM files and configs (../shared/bench/xgb/<set>.conf), one run each, alternating.
#
# usage: bench/memory/memory_bench.sh [SET...]   SET: higgs1m | fashion | higgs3m | higgs10m
#   higgs3m / higgs10m: the higgs1m config on 3M / 10M rows (made in bench/out if absent;
#   ~1 / ~3.6 GB of text, never committed).  TREERING=build/bin/treering
# Prints per set: wall and peak RSS (/usr/bin/time -v) of both and the ratios.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/bench/out
conf_dir=$root/../shared/bench/xgb
data_dir=$root/../shared/bench/data
py=/usr/bin/python3
treering=$(realpath "${TREERING:-$root/build/bin/treering}")
xgboost=/usr/bin/xgboost
[ -x "$xgboost" ] || { echo "no $xgboost (Debian's xgboost CLI): cannot compare" >&2; exit 77; }
(($#)) || set -- higgs1m fashion
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

make_data() {  # $1 = set
  [ -s "$out/$1.train.libsvm" ] && return
  mkdir -p "$out"
  case $1 in
    higgs1m) "$py" "$data_dir/make_synthetic.py" "$out" --rows 1000000 ;;
    higgs3m) "$py" "$data_dir/make_synthetic.py" "$out" --rows 3000000 ;;
    higgs10m) "$py" "$data_dir/make_synthetic.py" "$out" --rows 10000000 ;;
    fashion) "$py" "$data_dir/fashion_mnist_to_libsvm.py" "$out" ;;
  esac
}

run() {  # $1 = program $2 = conf $3.. = overrides; prints "wall_s rss_kb"
  local prog=$1 conf=$2; shift 2
  (cd "$out" && /usr/bin/time -v "$prog" "$conf" "$@" > "$scratch/log" 2>&1) || {
    grep -v $'^\t' "$scratch/log" | tail -5 >&2; return 1; }
  awk '/Elapsed \(wall clock\)/ {n=split($NF, t, ":"); s=0; for (i=1;i<=n;i++) s=s*60+t[i]}
       /Maximum resident set size/ {r=$NF} END {print s, r}' "$scratch/log"
}

for set in "$@"; do
  make_data "$set"
  conf=$conf_dir/${set%[0-9]m}1m.conf
  extra=()
  case $set in
    fashion) conf=$conf_dir/fashion.conf ;;
    higgs3m | higgs10m)  # XGBoost's CLI keeps the config's eval[test] beside one given
      sed -e "s/higgs1m\./$set./g" "$conf" > "$scratch/$set.conf"
      conf=$scratch/$set.conf extra=(num_round=20) ;;
  esac
  read -r tw trss < <(run "$treering" "$conf" "${extra[@]}" model_out="$scratch/t.model")
  read -r xw xrss < <(run "$xgboost" "$conf" "${extra[@]}" model_out="$scratch/x.model")
  awk -v s="$set" -v tw="$tw" -v xw="$xw" -v tr="$trss" -v xr="$xrss" 'BEGIN {
    printf "%s\n  wall      treering %7.2f s   xgboost %7.2f s   ratio %.2f\n", s, tw, xw, tw / xw
    printf "  peak RSS  treering %7.0f MB  xgboost %7.0f MB  ratio %.2f\n", tr / 1024, xr / 1024, tr / xr }'
done
