#!/usr/bin/env bash
# SHAP contributions: treering's exact TreeSHAP (pred_contribs) against python3-xgboost 1.7's
# Booster.predict(pred_contribs=True) on the same model and the same rows, the same thread
# count, alternating runs; only the prediction call is timed (data and model loaded beforehand
# on both sides; python warms up on 1000 rows, treering's timer runs one repeat without warm-up:
# a run of tens of seconds of arithmetic has nothing to warm).
#
# usage: bench/boost/shap_bench.sh     (run from anywhere; build treering and treering-shap-bench)
#   ROWS=100000 FEATURES=28 ROUNDS=100 DEPTH=6 NTHREAD=2 REPEATS=3 APPROX=0
# The model is trained by treering (binary:logistic, hist) on ROWS x FEATURES synthetic rows
# with 10% missing values; the same rows are explained. Prints both medians and the ratio
# treering / xgboost (below 1: treering is faster).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
py=/usr/bin/python3
rows=${ROWS:-100000} features=${FEATURES:-28} rounds=${ROUNDS:-100} depth=${DEPTH:-6}
nthread=${NTHREAD:-2} repeats=${REPEATS:-3} approx=${APPROX:-0}
bin=$root/build/bin
[ -x "$bin/treering" ] && [ -x "$bin/treering-shap-bench" ] ||
  { echo "build the treering and treering-shap-bench targets first" >&2; exit 1; }
"$py" -c 'import xgboost, numpy' 2>/dev/null || { echo "SKIP: python3-xgboost not installed"; exit 77; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

"$py" - "$scratch/data.libsvm" "$rows" "$features" <<'PY'
import sys
import numpy as np
path, rows, features = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(3)
x = np.round(rng.normal(size=(rows, features)), 4)
y = (x[:, 0] * x[:, 1] + np.sin(3 * x[:, 2]) + 0.5 * rng.normal(size=rows) > 0).astype(int)
x[rng.random(size=x.shape) < 0.1] = np.nan
x[0, :] = 1.0  # every column present in both readers
with open(path, "w") as f:
    for row, label in zip(x, y):
        f.write(str(label) + "".join(" %d:%g" % (j, v) for j, v in enumerate(row) if v == v) + "\n")
PY
"$bin/treering" /dev/null data="$scratch/data.libsvm" objective=binary:logistic \
  num_round="$rounds" max_depth="$depth" eta=0.1 nthread="$nthread" verbosity=0 \
  model_out="$scratch/model.json" >/dev/null

py_time() {
  "$py" - "$scratch/model.json" "$scratch/data.libsvm" "$nthread" "$approx" <<'PY'
import sys, time
import xgboost as xgb
model, data, nthread, approx = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
bst = xgb.Booster(model_file=model)
bst.set_param({"nthread": nthread})
dm = xgb.DMatrix(data + "?format=libsvm", nthread=nthread)
bst.predict(dm.slice(list(range(1000))), pred_contribs=True, approx_contribs=approx)  # warm-up
start = time.perf_counter()
bst.predict(dm, pred_contribs=True, approx_contribs=approx)
print("%.4f" % (time.perf_counter() - start))
PY
}
ours_time() {
  local mode=exact
  [ "$approx" = 1 ] && mode=approx
  "$bin/treering-shap-bench" "$scratch/model.json" "$scratch/data.libsvm" 1 "$nthread" "$mode" nowarmup |
    sed 's/median_s=\([0-9.]*\).*/\1/'
}

ours=() theirs=()
for ((i = 0; i < repeats; ++i)); do
  ours+=("$(ours_time)")
  theirs+=("$(py_time)")
  echo "run $i: treering ${ours[-1]} s, xgboost ${theirs[-1]} s" >&2
done
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
m_ours=$(median "${ours[@]}") m_theirs=$(median "${theirs[@]}")
echo "pred_contribs (approx=$approx) rows=$rows features=$features rounds=$rounds depth=$depth nthread=$nthread"
echo "treering median ${m_ours} s, python3-xgboost median ${m_theirs} s, ratio $(
  awk -v a="$m_ours" -v b="$m_theirs" 'BEGIN {printf "%.2fx", a / b}')"
