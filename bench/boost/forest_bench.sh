#!/usr/bin/env bash
# A random forest on higgs1m: treering against XGBoost 1.7's CLI, one round of 100 trees
# (num_parallel_tree=100, eta=1, subsample=colsample_bynode=0.8: XGBRFClassifier's settings)
# on ../shared/bench/xgb/higgs1m.conf (max_depth 8, 256 bins, 2 threads), alternating runs after
# one warm-up of each. boost_bench.sh's per-round column needs several rounds; a forest has one,
# so this prints the median wall time, the test AUC and peak RSS of both, and the ratios; also
# the median CPU time (user + sys), which other jobs on the machine inflate less than the wall.
#
# usage: bench/boost/forest_bench.sh [key=value ...]   (appended to both command lines)
#   REPEATS=3  TREERING=build/bin/treering  TREES=100
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/bench/out
conf=$root/../shared/bench/xgb/higgs1m.conf
repeats=${REPEATS:-3}
treering=$(realpath "${TREERING:-$root/build/bin/treering}")
forest=(num_parallel_tree="${TREES:-100}" num_round=1 eta=1 subsample=0.8 colsample_bynode=0.8
        reg_lambda=1e-5 "$@")
[ -x "$treering" ] || { echo "no $treering: build the treering target" >&2; exit 1; }
if [ ! -s "$out/higgs1m.train.libsvm" ]; then
  mkdir -p "$out"
  /usr/bin/python3 "$root/../shared/bench/data/make_synthetic.py" "$out" --rows 1000000
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

run_one() {  # $1 = treering|xgboost; prints "wall_s rss_kb auc cpu_s"
  local log=$scratch/$1.log exe=xgboost
  [ "$1" = treering ] && exe=$treering
  (cd "$out" && /usr/bin/time -v "$exe" "$conf" model_out="$scratch/$1.model" "${forest[@]}" \
     > "$log" 2>&1) || { echo "$1 failed:" >&2; tail -5 "$log" >&2; exit 1; }
  echo "$(awk '/Elapsed \(wall/ {split($8, t, ":"); print t[1] * 60 + t[2]}' "$log") \
$(awk '/Maximum resident/ {print $6}' "$log") \
$(grep -o 'test-auc:[0-9.]*' "$log" | tail -1 | cut -d: -f2) \
$(awk '/User time|System time/ {s += $NF} END {print s}' "$log")"
}

median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

# Other jobs on the machine change both times (2 vCPUs here): the load is printed with them.
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
run_one treering > /dev/null; run_one xgboost > /dev/null
tw=(); trss=(); xw=(); xrss=(); tc=(); xc=()
for ((i = 0; i < repeats; i++)); do
  read -r w r tauc c < <(run_one treering); tw+=("$w"); trss+=("$r"); tc+=("$c"); t_run=$w
  read -r w r xauc c < <(run_one xgboost); xw+=("$w"); xrss+=("$r"); xc+=("$c")
  awk -v i=$((i + 1)) -v t="$t_run" -v x="$w" -v l="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN {
    printf "  run %d: treering %.2f s, xgboost %.2f s, ratio %.2f (load %s)\n", i, t, x, t / x, l }'
done
awk -v tw="$(echo "${tw[@]}" | median)" -v xw="$(echo "${xw[@]}" | median)" \
    -v tr="$(echo "${trss[@]}" | median)" -v xr="$(echo "${xrss[@]}" | median)" \
    -v tc="$(echo "${tc[@]}" | median)" -v xc="$(echo "${xc[@]}" | median)" \
    -v ta="$tauc" -v xa="$xauc" -v n="$repeats" -v k="${forest[*]}" \
    -v lb="$load_before" -v la="$(cut -d' ' -f1-3 /proc/loadavg)" 'BEGIN {
  printf "higgs1m forest (%s), median of %d\n", k, n
  printf "  load      before %s   after %s (1, 5, 15 min)\n", lb, la
  printf "  wall      treering %7.2f s   xgboost %7.2f s   ratio %.2f\n", tw, xw, tw / xw
  printf "  cpu       treering %7.2f s   xgboost %7.2f s   ratio %.2f (user + sys)\n", tc, xc, tc / xc
  printf "  test-auc  treering %.6f   xgboost %.6f\n", ta, xa
  printf "  peak RSS  treering %7.0f MB  xgboost %7.0f MB  ratio %.2f\n", tr / 1024, xr / 1024, tr / xr
}'
