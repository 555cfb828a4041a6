#!/usr/bin/env bash
# XGBClassifier.fit on Fashion-MNIST (Debian's dataset-fashion-mnist, 60000 x 784 as float32
# with the zero pixels present) through treering.sklearn against python3-xgboost 1.7.4 (issue
# 31: <= 0.5x). fashion.conf's params (hist, depth 6, eta 0.3, n_jobs 2), ROUNDS estimators;
# the two sides alternate REPEATS times, each a fresh process; medians, ratio, test accuracy.
# Until treering.sklearn exists the treering side prints "skip" and the script says so loudly
# (XGBoost's side still runs, which checks the script).
#
# usage: bench/python/sklearn_bench.sh      (run from anywhere)
#   LIB=build/lib  REPEATS=3  ROUNDS=10  SRC=/usr/share/datasets/fashion-mnist
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
lib=$(realpath "${LIB:-$root/build/lib}")
repeats=${REPEATS:-3}
rounds=${ROUNDS:-10}
src=${SRC:-/usr/share/datasets/fashion-mnist}
py=/usr/bin/python3
bench=$root/bench/python/pybench.py
export TREERING_LIBRARY=$lib/libtreering.so
[ -e "$src/train-images-idx3-ubyte.gz" ] || { echo "no $src (apt install dataset-fashion-mnist)" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
value() { awk -v k="$1" '$1 == k {print $2}' "$2"; }
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
: > "$scratch/treering"; : > "$scratch/xgboost"
skip=
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((i = 0; i < repeats; ++i)); do
  for side in treering xgboost; do
    [ "$side" = treering ] && [ -n "$skip" ] && continue
    "$py" "$bench" "$side" fit_fashion "$src" "$rounds" > "$scratch/$side.last"
    if grep -q '^skip' "$scratch/$side.last"; then
      skip=$(sed -n 's/^skip //p' "$scratch/$side.last")
      echo "########## SKIP: $skip -- treering side not measured ##########" >&2
      continue
    fi
    value fit_s "$scratch/$side.last" >> "$scratch/$side"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
x=$(median < "$scratch/xgboost")
echo "xgboost XGBClassifier.fit, $rounds rounds: $x s (runs $(tr '\n' ' ' < "$scratch/xgboost")), test accuracy $(value test_accuracy "$scratch/xgboost.last")"
if [ -n "$skip" ]; then
  echo "skip: $skip"
  exit 0
fi
t=$(median < "$scratch/treering")
echo "treering XGBClassifier.fit, $rounds rounds: $t s (runs $(tr '\n' ' ' < "$scratch/treering")), test accuracy $(value test_accuracy "$scratch/treering.last")"
printf '| XGBClassifier.fit Fashion-MNIST, %s rounds (s, median of %s) | %s | %s | %.3f | <= 0.5 |\n' \
  "$rounds" "$repeats" "$t" "$x" "$(echo "$t / $x" | bc -l)"
