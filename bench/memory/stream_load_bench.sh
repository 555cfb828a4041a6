#!/usr/bin/env bash
# Streamed in-memory load (issue 33 goal 1, docs/data.md "Streamed load"): peak RSS and wall of
# treering's CLI with the plain load (TREERING_STREAM_LOAD=0), with the default (streamed from
# 512 MiB of text) and of XGBoost 1.7's CLI, on the same file and config; checks the two
# treering models are byte-identical. Prints the load average before each run (shared machine).
#
# usage: bench/memory/stream_load_bench.sh DIR SET [SET...]
#   DIR/SET.train.libsvm is trained (e.g. higgs1m, higgs3m, higgs10m: make them with
#   ../shared/bench/data/make_synthetic.py --rows N; never commit them); DIR/EVAL (env EVAL,
#   default higgs10m.eval10k.libsvm) is the eval set when it exists.
#   ROUNDS (20), XGB=0 skips XGBoost (minutes and ~3.4 GB at 10M rows), MODES ("0 auto").
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(realpath "$1")
shift
treering=$(realpath "${TREERING:-$root/build/bin/treering}")
xgboost=/usr/bin/xgboost
rounds=${ROUNDS:-20}
eval_file=${EVAL:-higgs10m.eval10k.libsvm}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

cat > "$scratch/base.conf" <<EOF
booster = gbtree
objective = binary:logistic
tree_method = hist
max_bin = 256
max_depth = 8
eta = 0.1
nthread = 2
eval_metric = auc
num_round = $rounds
EOF
[ -s "$dir/$eval_file" ] && echo "eval[test] = \"$eval_file?format=libsvm\"" >> "$scratch/base.conf"

run() {  # $1 = name, $2.. = command; prints "wall_s rss_kb"
  local name=$1
  shift
  (cd "$dir" && /usr/bin/time -v "$@" > "$scratch/$name.log" 2>&1) || {
    grep -v $'^\t' "$scratch/$name.log" | tail -5 >&2
    return 1
  }
  awk '/Elapsed \(wall clock\)/ {n=split($NF, t, ":"); s=0; for (i=1;i<=n;i++) s=s*60+t[i]}
       /Maximum resident set size/ {r=$NF} END {print s, r}' "$scratch/$name.log"
}

for set in "$@"; do
  data="data=$set.train.libsvm?format=libsvm"
  echo "$set ($(du -mL "$dir/$set.train.libsvm" | cut -f1) MB of text)"
  declare -A rss=() wall=()
  for mode in ${MODES:-0 auto}; do
    echo "  load average $(cut -d' ' -f1-3 /proc/loadavg)"
    env_mode=()
    [ "$mode" = auto ] || env_mode=(TREERING_STREAM_LOAD="$mode")
    read -r w r < <(run "tr_$mode" env "${env_mode[@]}" "$treering" "$scratch/base.conf" "$data" \
      model_out="$scratch/tr_$mode.json")
    rss[$mode]=$r wall[$mode]=$w
    printf "  treering TREERING_STREAM_LOAD=%-4s wall %7.2f s  peak RSS %6.0f MiB  (%s)\n" "$mode" \
      "$w" "$((r / 1024))" "$(grep -o 'load [0-9.]* s, setup [0-9.]* s' "$scratch/tr_$mode.log")"
  done
  modes=(${MODES:-0 auto})
  if ((${#modes[@]} > 1)); then
    if cmp -s "$scratch/tr_${modes[0]}.json" "$scratch/tr_${modes[1]}.json"; then
      echo "  models byte-identical: yes"
    else
      echo "  models byte-identical: NO"
    fi
  fi
  if [ "${XGB:-1}" != 0 ] && [ -x "$xgboost" ]; then
    echo "  load average $(cut -d' ' -f1-3 /proc/loadavg)"
    read -r xw xr < <(run xgb "$xgboost" "$scratch/base.conf" "$data" model_out="$scratch/x.model")
    printf "  xgboost 1.7.4 CLI                   wall %7.2f s  peak RSS %6.0f MiB\n" "$xw" \
      "$((xr / 1024))"
    for mode in "${modes[@]}"; do
      awk -v m="$mode" -v r="${rss[$mode]}" -v w="${wall[$mode]}" -v xr="$xr" -v xw="$xw" \
        'BEGIN {printf "  treering (%s) / xgboost: peak RSS %.2fx, wall %.2fx\n", m, r/xr, w/xw}'
    done
  fi
  unset rss wall
done
