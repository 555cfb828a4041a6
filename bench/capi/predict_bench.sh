#!/usr/bin/env bash
# The C API against Debian's libxgboost in the same run: bench/capi/capi_bench.c is compiled
# once against treering's c_api.h and linked twice (build/lib/libtreering.so and
# /usr/lib/x86_64-linux-gnu/libxgboost.so.0, the same ABI). On higgs1m (../shared/bench) with
# a depth-8, 100-tree model trained once by XGBoost it prints:
#   predict on the 1M training rows (XGBoosterPredictFromDMatrix, median of REPEATS; each the
#   first prediction of a fresh booster, as XGBoost caches a matrix's predictions),
#   single-row inplace latency (XGBoosterPredictFromDense, p50 / p99 of CALLS calls),
#   training through the C API (higgs1m.conf's params) vs the `treering` CLI, wall time.
#
# usage: bench/capi/predict_bench.sh        (run from anywhere)
#   BIN=build/bin LIB=build/lib   the build; OUT=bench/out holds data and the model
#   REPEATS=5 CALLS=20000 ROUNDS=100 TRAIN_REPEATS=3
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(realpath "${BIN:-$root/build/bin}")
lib=$(realpath "${LIB:-$root/build/lib}")
out=${OUT:-$root/bench/out}
repeats=${REPEATS:-5}
calls=${CALLS:-20000}
rounds=${ROUNDS:-100}
py=/usr/bin/python3
peer=/usr/lib/x86_64-linux-gnu/libxgboost.so.0
conf=$root/../shared/bench/xgb/higgs1m.conf
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
[ -e "$lib/libtreering.so" ] || { echo "no $lib/libtreering.so: build treering_shared" >&2; exit 1; }
[ -x "$bin/treering" ] || { echo "no $bin/treering: build the CLI" >&2; exit 1; }
[ -e "$peer" ] || { echo "no $peer (apt install libxgboost0)" >&2; exit 1; }
mkdir -p "$out"
train=$out/higgs1m.train.libsvm
test=$out/higgs1m.test.libsvm
[ -s "$train" ] || "$py" "$root/../shared/bench/data/make_synthetic.py" "$out" --rows 1000000 >&2

# One program, two links.
cc -O2 -std=c11 -D_POSIX_C_SOURCE=199309L -I "$root/capi/include" "$root/bench/capi/capi_bench.c" \
  -o "$scratch/bench_treering" -L "$lib" -ltreering -Wl,-rpath,"$lib" -lm
cc -O2 -std=c11 -D_POSIX_C_SOURCE=199309L -I "$root/capi/include" "$root/bench/capi/capi_bench.c" \
  -o "$scratch/bench_xgboost" "$peer" -lm

model=$out/capi_bench_higgs1m_xgb.json
if [ ! -s "$model" ]; then
  echo "training the depth-8 100-tree model with XGBoost (once)" >&2
  "$py" - "$train" "$model" <<'PY'
import sys, xgboost
d = xgboost.DMatrix(sys.argv[1] + "?format=libsvm", nthread=2)
params = {"booster": "gbtree", "objective": "binary:logistic", "tree_method": "hist",
          "max_bin": 256, "max_depth": 8, "eta": 0.1, "nthread": 2}
xgboost.train(params, d, num_boost_round=100).save_model(sys.argv[2])
PY
fi

value() { awk -v k="$1" '$1 == k {print $2}' "$2"; }
for who in treering xgboost; do
  "$scratch/bench_$who" predict "$model" "$train" "$test" "$repeats" > "$scratch/$who.predict"
  "$scratch/bench_$who" latency "$model" "$test" "$calls" > "$scratch/$who.latency"
done
# Same predictions from both libraries on the same floats: the inplace rows (parsed by the
# program) must give equal sums. The bulk sums differ slightly because XGBoost's LibSVM parser
# rounds ~3% of the decimal strings to a neighbouring float (treering's rounds correctly).
sum_t=$(value checksum "$scratch/treering.latency"); sum_x=$(value checksum "$scratch/xgboost.latency")
[ "$sum_t" = "$sum_x" ] || echo "WARNING: inplace prediction checksums differ: $sum_t vs $sum_x" >&2

# Training: the C API program vs the CLI, same params (higgs1m.conf), same data, eval each round;
# whole runs (load, 100 rounds, save), alternating, TRAIN_REPEATS times each, medians.
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
: > "$scratch/capi_s"; : > "$scratch/cli_s"
for ((i = 0; i < ${TRAIN_REPEATS:-3}; ++i)); do
  "$scratch/bench_treering" train "$train" "$test" "$rounds" "$scratch/capi.json" > "$scratch/train"
  value train_s "$scratch/train" >> "$scratch/capi_s"
  start=$(date +%s.%N)
  "$bin/treering" "$conf" data="$train?format=libsvm" eval[test]="$test?format=libsvm" \
    num_round="$rounds" model_out="$scratch/cli.json" > "$scratch/cli.log" 2>&1
  echo "$(date +%s.%N) - $start" | bc -l >> "$scratch/cli_s"
done
cli_s=$(median < "$scratch/cli_s")
same_model=no
cmp -s "$scratch/capi.json" "$scratch/cli.json" && same_model=yes

ratio() { echo "scale=3; $1 / $2" | bc -l; }
p_t=$(value predict_s "$scratch/treering.predict"); p_x=$(value predict_s "$scratch/xgboost.predict")
l50_t=$(value latency_p50_us "$scratch/treering.latency"); l50_x=$(value latency_p50_us "$scratch/xgboost.latency")
l99_t=$(value latency_p99_us "$scratch/treering.latency"); l99_x=$(value latency_p99_us "$scratch/xgboost.latency")
t_c=$(median < "$scratch/capi_s")
printf '| measure | treering | libxgboost / CLI | ratio | goal |\n|---|---|---|---|---|\n'
printf '| predict 1M rows (s, median of %s) | %s | %s | %s | <= 0.5 |\n' "$repeats" "$p_t" "$p_x" "$(ratio "$p_t" "$p_x")"
printf '| single-row inplace p50 (us) | %s | %s | %s | <= 0.5 |\n' "$l50_t" "$l50_x" "$(ratio "$l50_t" "$l50_x")"
printf '| single-row inplace p99 (us) | %s | %s | %s | <= 0.5 |\n' "$l99_t" "$l99_x" "$(ratio "$l99_t" "$l99_x")"
printf '| train %s rounds, C API vs CLI (s, median of %s) | %s | %.3f | %s | within 2%% |\n' "$rounds" "${TRAIN_REPEATS:-3}" "$t_c" "$cli_s" "$(ratio "$t_c" "$cli_s")"
echo "C API runs: $(tr '\n' ' ' < "$scratch/capi_s"); CLI runs: $(tr '\n' ' ' < "$scratch/cli_s")"
echo "C API model == CLI model: $same_model"
