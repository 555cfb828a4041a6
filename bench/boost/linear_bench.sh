#!/usr/bin/env bash
# booster=gblinear on higgs1m (1M x 28 dense, binary:logistic): treering against XGBoost 1.7's
# CLI with the same keys (shotgun, cyclic; 2 threads; test AUC each round), alternating runs after
# one warm-up of each. Prints the median wall time (data loading included, as a user waits for
# it), the training time from each program's own report where it gives one, the last test AUC
# and the ratios.
#
# usage: bench/boost/linear_bench.sh [key=value ...]   (appended to both command lines)
#   REPEATS=3  ROUNDS=20  TREERING=build/bin/treering  OUT=bench/out (where higgs1m is made)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-$root/bench/out}
repeats=${REPEATS:-3}
treering=$(realpath "${TREERING:-$root/build/bin/treering}")
[ -x "$treering" ] || { echo "no $treering: build the treering target" >&2; exit 1; }
command -v xgboost > /dev/null || { echo "no xgboost CLI (Debian package xgboost)" >&2; exit 1; }
if [ ! -s "$out/higgs1m.train.libsvm" ]; then
  mkdir -p "$out"
  /usr/bin/python3 "$root/../shared/bench/data/make_synthetic.py" "$out" --rows 1000000
fi
keys=(booster=gblinear objective=binary:logistic nthread=2 eval_metric=auc
      num_round="${ROUNDS:-20}" "data=higgs1m.train.libsvm?format=libsvm"
      "eval[test]=higgs1m.test.libsvm?format=libsvm" "$@")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

run_one() {  # $1 = treering|xgboost; prints "wall_s auc"
  local log=$scratch/$1.log exe=xgboost
  [ "$1" = treering ] && exe=$treering
  (cd "$out" && /usr/bin/time -v "$exe" /dev/null model_out="$scratch/$1.model" "${keys[@]}" \
     > "$log" 2>&1) || { echo "$1 failed:" >&2; tail -5 "$log" >&2; exit 1; }
  echo "$(awk '/Elapsed \(wall/ {split($8, t, ":"); print t[1] * 60 + t[2]}' "$log") \
$(grep -o 'test-auc:[0-9.]*' "$log" | tail -1 | cut -d: -f2)"
}

median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

run_one treering > /dev/null; run_one xgboost > /dev/null
tw=(); xw=()
for ((i = 0; i < repeats; i++)); do
  read -r w tauc < <(run_one treering); tw+=("$w")
  read -r w xauc < <(run_one xgboost); xw+=("$w")
done
awk -v tw="$(echo "${tw[@]}" | median)" -v xw="$(echo "${xw[@]}" | median)" \
    -v ta="$tauc" -v xa="$xauc" -v n="$repeats" -v k="${keys[*]}" 'BEGIN {
  printf "higgs1m gblinear (%s), median of %d\n", k, n
  printf "  wall      treering %7.2f s   xgboost %7.2f s   ratio %.2f\n", tw, xw, tw / xw
  printf "  test-auc  treering %.6f   xgboost %.6f\n", ta, xa
}'
