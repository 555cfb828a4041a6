#!/usr/bin/env bash
# XGBoost 1.7's own CLI workers (legacy dmlc/rabit protocol) under treering-submit: 2 workers
# train on generated data, rank 0's eval lines come out unprefixed through the tracker, exit 0,
# and the model equals the one a single XGBoost process trains (row split must not change
# hist results on this data: the cut points are exact for few distinct values).
# usage: xgboost_legacy_test.sh TREERING_SUBMIT
# Exit codes: 0 pass, 1 fail, 77 skipped (the peer, the xgboost CLI, is not on PATH; ctest
# registers 77 as SKIP_RETURN_CODE).
set -uo pipefail
SUBMIT=$(realpath "$1")
if ! command -v xgboost >/dev/null; then
  echo "SKIP: the xgboost CLI (the peer, Debian package xgboost) is not on PATH: nothing checked"
  exit 77
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
/usr/bin/python3 - <<'PY'
import numpy as np
rng = np.random.default_rng(7)
for name, n in (("train", 4000), ("test", 1000)):
    x = rng.integers(0, 8, size=(n, 6))
    y = ((x[:, 0] + x[:, 1] * 0.5 - x[:, 2] + rng.normal(0, 1, n)) > 2).astype(int)
    with open(name + ".libsvm", "w") as f:
        for row, label in zip(x, y):
            f.write(str(label) + " " + " ".join(f"{j}:{v}" for j, v in enumerate(row) if v) + "\n")
PY
cat >train.conf <<'CONF'
booster = gbtree
objective = binary:logistic
tree_method = hist
max_depth = 3
eta = 0.5
num_round = 4
nthread = 1
data = "train.libsvm?format=libsvm"
eval[test] = "test.libsvm?format=libsvm"
model_out = "model.json"
CONF
timeout 150 "$SUBMIT" --cluster local --num-workers 2 -- xgboost train.conf >out.txt 2>err.txt
rc=$?
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
[ "$rc" = 0 ] || fail "exit code $rc; stderr: $(tail -20 err.txt)"
for i in 0 1 2 3; do
  grep -qE "^(\[[0-9:]+\] )?\[$i\]	test-logloss:[0-9.]+$" out.txt || fail "no unprefixed eval line for round $i: $(cat out.txt)"
done
[ -s model.json ] || fail "rank 0 wrote no model"
grep -q "^\[submit\] .*job succeeded" err.txt || fail "no success line: $(tail -3 err.txt)"
# The peer: one XGBoost process on the whole file gives the same eval values.
strip_time() { sed -E 's/^\[[0-9:]+\] //' "$1" | grep -E '^\[[0-9]+\]	'; }
xgboost train.conf model_out=single.json 2>single.txt || fail "single-process xgboost failed"
if [ "$(strip_time out.txt)" != "$(strip_time single.txt)" ]; then
  fail "distributed eval lines differ from single-process ones:"$'\n'"$(strip_time single.txt)"
fi
timeout 150 "$SUBMIT" --cluster local --num-workers 3 -- xgboost train.conf >out3.txt 2>err3.txt \
  || fail "3 workers: exit code $?: $(tail -5 err3.txt)"
[ "$(strip_time out3.txt)" = "$(strip_time single.txt)" ] || fail "3 workers: eval lines differ"
echo "--- stdout"; cat out.txt
echo "xgboost legacy test: $failures failure(s)"
[ "$failures" = 0 ]
