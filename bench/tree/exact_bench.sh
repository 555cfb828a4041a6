#!/usr/bin/env bash
# tree_method=exact: treering against Debian's xgboost CLI (1.7.4) on the same generated LibSVM
# file (10k rows x 20 features on a 1/64 grid, 10% missing, binary), one thread each, whole
# command timed (load + 50 rounds of depth 6). Prints each run, the medians and the ratio, and
# the largest prediction difference (both models predict the training file).
# Usage: bench/tree/exact_bench.sh [build/bin] [repeats]
set -euo pipefail
bin=$(realpath "${1:-build/bin}")
repeats=${2:-3}
command -v xgboost >/dev/null || { echo "SKIP: the xgboost CLI is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
/usr/bin/python3 - <<'PY'
import numpy as np
rng = np.random.default_rng(3)
n, p = 10000, 20
x = np.round(rng.normal(size=(n, p)) * 64) / 64
x[rng.random((n, p)) < 0.1] = np.nan
z = np.nan_to_num(x[:, 0]) + np.nan_to_num(x[:, 1]) ** 2 - np.nan_to_num(x[:, 2])
y = (z + rng.normal(scale=0.5, size=n) > 0.8).astype(int)
with open("b10k.libsvm", "w") as f:
    for i in range(n):
        cols = " ".join("%d:%g" % (j, x[i, j]) for j in range(p) if not np.isnan(x[i, j]))
        f.write("%d %s\n" % (y[i], cols))
PY
keys=(data=b10k.libsvm objective=binary:logistic max_depth=6 num_round=50 nthread=1
      tree_method=exact)
seconds() { local s=$(date +%s.%N); "$@" >/dev/null 2>&1; echo "$(date +%s.%N) - $s" | bc; }
ours=() theirs=()
"$bin/treering" /dev/null "${keys[@]}" model_out=warm.json >/dev/null 2>&1  # warm up caches
for ((i = 0; i < repeats; i++)); do
  ours+=("$(seconds "$bin/treering" /dev/null "${keys[@]}" model_out=t.json)")
  theirs+=("$(seconds xgboost /dev/null "${keys[@]}" model_out=x.json)")
  echo "run $i: treering ${ours[-1]} s, xgboost ${theirs[-1]} s"
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
mo=$(median "${ours[@]}") mx=$(median "${theirs[@]}")
echo "median: treering $mo s, xgboost $mx s, ratio $(echo "scale=3; $mo / $mx" | bc)"
"$bin/treering" /dev/null task=pred model_in=t.json test:data=b10k.libsvm name_pred=t.txt >/dev/null
xgboost /dev/null task=pred model_in=x.json test:data=b10k.libsvm name_pred=x.txt >/dev/null 2>&1
paste t.txt x.txt | awk '{d=$1-$2; if (d<0) d=-d; if (d>m) m=d} END{print "max |pred diff|", m+0}'
