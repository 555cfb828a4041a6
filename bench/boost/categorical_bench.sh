#!/usr/bin/env bash
# Categorical features: treering against python3-xgboost 1.7 on one generated LibSVM file
# (never committed: made in bench/out), same parameters, alternating runs after one warm-up
# of each. The peer is python-xgboost, not the xgboost CLI: Debian's `xgboost` 1.7 CLI has no
# way to mark a column categorical (feature_types is a DMatrix property its config cannot set).
# Both wall times cover the whole process: load the file, build the cuts, train, save.
#
# usage: bench/boost/categorical_bench.sh [-- key=value ...]
#   ROWS=500000 ROUNDS=30 REPEATS=3 NTHREAD=2 TREERING=build/bin/treering
# Data: 8 columns, feature_types c,c,c,c,q,q,q,q; categorical columns with 3 (one-hot), 20,
# 100 and 1000 categories (partition splits), 5 % missing; a regression label.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/bench/out
py=/usr/bin/python3
rows=${ROWS:-500000}; rounds=${ROUNDS:-30}; repeats=${REPEATS:-3}; nthread=${NTHREAD:-2}
treering=$(realpath "${TREERING:-$root/build/bin/treering}")
[ -x "$treering" ] || { echo "no $treering: build the treering target" >&2; exit 1; }
extra=(); if [ "${1:-}" = "--" ]; then shift; extra=("$@"); fi
data=$out/categorical$rows.libsvm
types=c,c,c,c,q,q,q,q
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

if [ ! -s "$data" ]; then
  mkdir -p "$out"
  echo "making $data" >&2
  "$py" "$root/bench/boost/categorical_data.py" "$data" "$rows"
fi

keys=(tree_method=hist objective=reg:squarederror max_depth=6 eta=0.3 "num_round=$rounds"
      "nthread=$nthread" "feature_types=$types" "${extra[@]}")

run_treering() {
  /usr/bin/time -f "%e %U %S" "$treering" /dev/null "data=$data" "model_out=$scratch/t.json" \
    "${keys[@]}" 2>&1 >/dev/null | tail -1
}

run_xgboost() {
  /usr/bin/time -f "%e %U %S" "$py" - "$data" "$scratch/x.json" "${keys[@]}" 2>&1 >/dev/null <<'PY' | tail -1
import sys
import xgboost as xgb
data, model, keys = sys.argv[1], sys.argv[2], dict(k.split("=", 1) for k in sys.argv[3:])
rounds = int(keys.pop("num_round"))
types = keys.pop("feature_types").split(",")
d = xgb.DMatrix(data + "?format=libsvm")
d.feature_types = types + ["q"] * (d.num_col() - len(types))
xgb.train(keys, d, rounds).save_model(model)
PY
}

median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

# On a loaded machine the wall time is mostly waiting for a core: CPU time (user + sys) is
# printed too, and its ratio is the steadier one.
run_treering > /dev/null; run_xgboost > /dev/null
tw=(); xw=(); tc=(); xc=()
for ((i = 0; i < repeats; i++)); do
  read -r w u s < <(run_treering); tw+=("$w"); tc+=("$(awk -v u="$u" -v s="$s" 'BEGIN {print u + s}')")
  read -r w u s < <(run_xgboost); xw+=("$w"); xc+=("$(awk -v u="$u" -v s="$s" 'BEGIN {print u + s}')")
done
t=$(echo "${tw[@]}" | median); x=$(echo "${xw[@]}" | median)
tcpu=$(echo "${tc[@]}" | median); xcpu=$(echo "${xc[@]}" | median)
pred=$("$py" - "$scratch/t.json" "$scratch/x.json" "$data" <<'PY'
import sys
import numpy as np
import xgboost as xgb
d = xgb.DMatrix(sys.argv[3] + "?format=libsvm")
a, b = (xgb.Booster(model_file=p).predict(d) for p in sys.argv[1:3])
y = d.get_label()
print("rmse treering %.5f xgboost %.5f, max |pred diff| %.2g" % (
    np.sqrt(np.mean((a - y) ** 2)), np.sqrt(np.mean((b - y) ** 2)), np.abs(a - b).max()))
PY
)
echo "categorical ($rows rows, $rounds rounds, nthread=$nthread, load $(cut -d' ' -f1-3 /proc/loadavg)):"
echo "  wall treering ${tw[*]} s (median $t), python-xgboost ${xw[*]} s (median $x)"
echo "  cpu  treering ${tc[*]} s (median $tcpu), python-xgboost ${xc[*]} s (median $xcpu)"
echo "  ratio treering/xgboost: wall $(awk -v a="$t" -v b="$x" 'BEGIN {printf "%.2f", a / b}')x, cpu $(awk -v a="$tcpu" -v b="$xcpu" 'BEGIN {printf "%.2f", a / b}')x"
echo "  $pred"
