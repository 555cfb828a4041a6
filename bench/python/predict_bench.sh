#!/usr/bin/env bash
# The Python package against python3-xgboost 1.7.4 in the same run (issue 31, "Speed"):
#   DMatrix from the 1M x 28 float32 higgs1m array, C order and Fortran order (goal <= 0.5x);
#   inplace_predict on the 1M rows with a depth-8, 100-tree model (goal <= 0.5x);
#   one-row inplace_predict latency, p50 and p99 of CALLS calls (goal <= 0.5x).
# Every measurement is a fresh process (bench/python/pybench.py), the two sides alternate
# REPEATS times and the table shows the medians of the per-process figures. The model is the
# one bench/capi/predict_bench.sh trains once with XGBoost; the array is higgs1m's training
# LibSVM file read once by XGBoost and kept as bench/out/higgs1m.train.npy (dense, 112 MB).
#
# usage: bench/python/predict_bench.sh      (run from anywhere)
#   LIB=build/lib (libtreering.so)  OUT=bench/out  REPEATS=5  INNER=3 (DMatrix / predict
#   calls per process, median)  CALLS=20000  ONLY="dmatrix inplace latency"
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
lib=$(realpath "${LIB:-$root/build/lib}")
out=${OUT:-$root/bench/out}
repeats=${REPEATS:-5}
inner=${INNER:-3}
calls=${CALLS:-20000}
only=${ONLY:-dmatrix inplace latency}
py=/usr/bin/python3
bench=$root/bench/python/pybench.py
export TREERING_LIBRARY=$lib/libtreering.so
[ -e "$TREERING_LIBRARY" ] || { echo "no $TREERING_LIBRARY: build treering_shared" >&2; exit 1; }
"$py" -c "import xgboost" 2>/dev/null || { echo "no python3-xgboost (the peer)" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$out"
train=$out/higgs1m.train.libsvm
[ -s "$train" ] || "$py" "$root/../shared/bench/data/make_synthetic.py" "$out" --rows 1000000 >&2
npy=$out/higgs1m.train.npy
[ -s "$npy" ] || "$py" "$bench" xgboost npy "$train" "$npy" >&2
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
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
ratio() { echo "scale=3; $1 / $2" | bc -l; }
# run NAME TASK ARGS...: REPEATS alternating processes; every "key value" line each side
# printed goes to $scratch/NAME.SIDE, its last process's output to $scratch/NAME.SIDE.last.
run() {
  local name=$1
  shift
  : > "$scratch/$name.treering"; : > "$scratch/$name.xgboost"
  for ((i = 0; i < repeats; ++i)); do
    for side in treering xgboost; do
      "$py" "$bench" "$side" "$@" > "$scratch/$name.$side.last"
      cat "$scratch/$name.$side.last" >> "$scratch/$name.$side"
    done
  done
}
row() {  # row LABEL NAME KEY GOAL: one table row from the medians of KEY
  local t x
  value "$3" "$scratch/$2.treering" > "$scratch/t"; value "$3" "$scratch/$2.xgboost" > "$scratch/x"
  t=$(median < "$scratch/t"); x=$(median < "$scratch/x")
  printf '| %s | %s | %s | %s | %s |\n' "$1" "$t" "$x" "$(ratio "$t" "$x")" "$4"
  echo "  $2 $3 runs: treering $(tr '\n' ' ' < "$scratch/t")/ xgboost $(tr '\n' ' ' < "$scratch/x")" >&2
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for what in $only; do
  case $what in
    dmatrix)
      run dmatrix_c dmatrix "$npy" C "$inner"
      run dmatrix_f dmatrix "$npy" F "$inner" ;;
    inplace) run inplace inplace "$model" "$npy" "$inner" ;;
    latency) run latency latency "$model" "$npy" "$calls" ;;
  esac
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '| measure (median of %s processes) | treering | xgboost 1.7.4 | ratio | goal |\n' "$repeats"
printf '|---|---|---|---|---|\n'
for what in $only; do
  case $what in
    dmatrix)
      row "DMatrix 1M x 28 float32, C order (s)" dmatrix_c dmatrix_s "<= 0.5"
      row "DMatrix 1M x 28 float32, Fortran order (s)" dmatrix_f dmatrix_s "<= 0.5" ;;
    inplace)
      row "inplace_predict 1M rows, depth 8 x 100 trees (s)" inplace inplace_s "<= 0.5"
      c_t=$(value checksum "$scratch/inplace.treering.last")
      c_x=$(value checksum "$scratch/inplace.xgboost.last")
      [ "$c_t" = "$c_x" ] || echo "WARNING: prediction sums differ: $c_t vs $c_x" >&2 ;;
    latency)
      row "one-row inplace_predict p50 (us)" latency latency_p50_us "<= 0.5"
      row "one-row inplace_predict p99 (us)" latency latency_p99_us "<= 0.5" ;;
  esac
done
