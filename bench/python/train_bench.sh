#!/usr/bin/env bash
# Training through the Python package against the `treering` CLI (issue 31: within 3 %), the
# same job both ways: higgs1m.conf (../shared/bench/xgb: depth 8, eta 0.1, hist, 256 bins,
# nthread 2, AUC and logloss on the test file each round), ROUNDS rounds, load both LibSVM
# files, train, save the model. Each run is a whole process timed from outside (Python's
# start-up and imports included; wall and user + sys CPU time by /usr/bin/time), the two
# alternate REPEATS times; the script prints the
# medians, the ratio, the test AUC of each and whether the two models are the same.
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
: > "$scratch/py_s"; : > "$scratch/cli_s"; : > "$scratch/xgb_s"
: > "$scratch/py_cpu"; : > "$scratch/cli_cpu"; : > "$scratch/xgb_cpu"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
# timed NAME CMD...: wall seconds to $scratch/NAME_s, user + sys CPU seconds to NAME_cpu
timed() {
  local name=$1
  shift
  /usr/bin/time -f "%e %U %S" -o "$scratch/time" "$@"
  awk '{print $1}' "$scratch/time" >> "$scratch/${name}_s"
  awk '{print $2 + $3}' "$scratch/time" >> "$scratch/${name}_cpu"
}
for ((i = 0; i < repeats; ++i)); do
  timed py "$py" "$bench" treering train "$train" "$test" "$rounds" "$scratch/py.json" \
    > "$scratch/py.out"
  timed cli "$bin/treering" "$conf" data="$train?format=libsvm" eval[test]="$test?format=libsvm" \
    num_round="$rounds" model_out="$scratch/cli.json" > "$scratch/cli.log" 2>&1
  if [ "${XGBOOST:-1}" = 1 ]; then
    timed xgb "$py" "$bench" xgboost train "$train" "$test" "$rounds" "$scratch/xgb.json" \
      > "$scratch/xgb.out"
  fi
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
py_s=$(median < "$scratch/py_s"); cli_s=$(median < "$scratch/cli_s")
# Python's train (XGBoost 1.7's) records best_iteration / best_ntree_limit in the model's
# attributes, the CLI does not: compare everything else.
same=$("$py" - "$scratch/py.json" "$scratch/cli.json" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for m in (a, b):
    for key in ("best_iteration", "best_ntree_limit"):
        m["learner"]["attributes"].pop(key, None)
print("yes (but the attributes Python's train adds)" if a == b else "no")
PY
)
cli_auc=$(grep -o 'test-auc:[0-9.]*' "$scratch/cli.log" | tail -1 | cut -d: -f2)
printf '| train %s rounds, higgs1m.conf (s, median of %s) | treering Python | treering CLI | ratio | goal |\n' \
  "$rounds" "$repeats"
printf '|---|---|---|---|---|\n'
printf '| whole process: load, train with eval, save | %.3f | %.3f | %.3f | <= 1.03 |\n' \
  "$py_s" "$cli_s" "$(echo "$py_s / $cli_s" | bc -l)"
py_c=$(median < "$scratch/py_cpu"); cli_c=$(median < "$scratch/cli_cpu")
printf '| the same, CPU time (user + sys) | %.2f | %.2f | %.3f | |\n' "$py_c" "$cli_c" \
  "$(echo "$py_c / $cli_c" | bc -l)"
echo "Python runs: $(tr '\n' ' ' < "$scratch/py_s")(CPU $(tr '\n' ' ' < "$scratch/py_cpu"))"
echo "CLI runs: $(tr '\n' ' ' < "$scratch/cli_s")(CPU $(tr '\n' ' ' < "$scratch/cli_cpu"))"
echo "test AUC: Python $(awk '$1 == "test_auc" {print $2}' "$scratch/py.out"), CLI $cli_auc"
echo "Python model == CLI model: $same"
if [ "${XGBOOST:-1}" = 1 ]; then
  xgb_s=$(median < "$scratch/xgb_s")
  printf 'python3-xgboost on the same job: %.3f s (runs %s), test AUC %s; treering Python / xgboost = %.3f\n' \
    "$xgb_s" "$(tr '\n' ' ' < "$scratch/xgb_s")" \
    "$(awk '$1 == "test_auc" {print $2}' "$scratch/xgb.out")" "$(echo "$py_s / $xgb_s" | bc -l)"
fi
