#!/usr/bin/env bash
# Training through the Python package against the `treering` CLI (issue 31: within 3 %), the
# same job both ways: higgs1m.conf (../shared/bench/xgb: depth 8, eta 0.1, hist, 256 bins,
# nthread 2, AUC and logloss on the test file each round), ROUNDS rounds, load both LibSVM
# files, train, save the model. Each run is a whole process timed from outside (Python's
# start-up and imports included), the two alternate REPEATS times; the script prints the
# medians, the ratio, the test AUC of each and whether the two models are byte-identical.
# The XGBoost CLI is not part of the ratio; python3-xgboost's own train on the same job is
# shown for scale (XGBOOST=0 leaves it out).
#
# usage: bench/python/train_bench.sh     (run from anywhere)
#   BIN=build/bin (treering CLI)  LIB=build/lib (libtreering.so)  OUT=bench/out
#   REPEATS=3  ROUNDS=100  XGBOOST=1
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(realpath "${BIN:-$root/build/bin}")
lib=$(realpath "${LIB:-$root/build/lib}")
out=${OUT:-$root/bench/out}
repeats=${REPEATS:-3}
rounds=${ROUNDS:-100}
py=/usr/bin/python3
bench=$root/bench/python/pybench.py
conf=$root/../shared/bench/xgb/higgs1m.conf
export TREERING_LIBRARY=$lib/libtreering.so
[ -e "$TREERING_LIBRARY" ] || { echo "no $TREERING_LIBRARY: build treering_shared" >&2; exit 1; }
[ -x "$bin/treering" ] || { echo "no $bin/treering: build the CLI" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$out"
train=$out/higgs1m.train.libsvm
test=$out/higgs1m.test.libsvm
[ -s "$train" ] || "$py" "$root/../shared/bench/data/make_synthetic.py" "$out" --rows 1000000 >&2

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
now() { date +%s.%N; }
: > "$scratch/py_s"; : > "$scratch/cli_s"; : > "$scratch/xgb_s"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((i = 0; i < repeats; ++i)); do
  start=$(now)
  "$py" "$bench" treering train "$train" "$test" "$rounds" "$scratch/py.json" > "$scratch/py.out"
  echo "$(now) - $start" | bc -l >> "$scratch/py_s"
  start=$(now)
  "$bin/treering" "$conf" data="$train?format=libsvm" eval[test]="$test?format=libsvm" \
    num_round="$rounds" model_out="$scratch/cli.json" > "$scratch/cli.log" 2>&1
  echo "$(now) - $start" | bc -l >> "$scratch/cli_s"
  if [ "${XGBOOST:-1}" = 1 ]; then
    start=$(now)
    "$py" "$bench" xgboost train "$train" "$test" "$rounds" "$scratch/xgb.json" > "$scratch/xgb.out"
    echo "$(now) - $start" | bc -l >> "$scratch/xgb_s"
  fi
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
py_s=$(median < "$scratch/py_s"); cli_s=$(median < "$scratch/cli_s")
same=no
cmp -s "$scratch/py.json" "$scratch/cli.json" && same=yes
cli_auc=$(grep -o 'test-auc:[0-9.]*' "$scratch/cli.log" | tail -1 | cut -d: -f2)
printf '| train %s rounds, higgs1m.conf (s, median of %s) | treering Python | treering CLI | ratio | goal |\n' \
  "$rounds" "$repeats"
printf '|---|---|---|---|---|\n'
printf '| whole process: load, train with eval, save | %.3f | %.3f | %.3f | <= 1.03 |\n' \
  "$py_s" "$cli_s" "$(echo "$py_s / $cli_s" | bc -l)"
echo "Python runs: $(tr '\n' ' ' < "$scratch/py_s"); CLI runs: $(tr '\n' ' ' < "$scratch/cli_s")"
echo "test AUC: Python $(awk '$1 == "test_auc" {print $2}' "$scratch/py.out"), CLI $cli_auc"
echo "Python model == CLI model: $same"
if [ "${XGBOOST:-1}" = 1 ]; then
  xgb_s=$(median < "$scratch/xgb_s")
  printf 'python3-xgboost on the same job: %.3f s (runs %s), test AUC %s; treering Python / xgboost = %.3f\n' \
    "$xgb_s" "$(tr '\n' ' ' < "$scratch/xgb_s")" \
    "$(awk '$1 == "test_auc" {print $2}' "$scratch/xgb.out")" "$(echo "$py_s / $xgb_s" | bc -l)"
fi
