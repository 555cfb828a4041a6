#!/usr/bin/env bash
# The README's demo command: installs dependencies, builds the three programs the demo runs,
# converts Fashion-MNIST (Debian's dataset-fashion-mnist) to LibSVM, then runs the main job
# distributed, as a user would on a cluster, here 4 local workers:
#   1. the data layer loads both files (rows, columns, MB/s);
#   2. treering-submit starts the tracker and 4 `treering` workers; each loads its quarter of the
#      rows and they train one 10-class hist GBDT from an XGBoost-style config file: per-round
#      metric lines (rank 0, through the tracker), the timing summary and the distributed
#      timing report (T_comp, T_sync, bytes per round, predicted speedup);
#   3. the model file rank 0 wrote (the only one: ranks 1-3 hold the same model in memory);
#   4. 4 workers predict the test set (each its shard, gathered in row order); test accuracy;
#   5. python3-xgboost 1.7 loads treering's JSON model and predicts the same classes.
set -euo pipefail
cd "$(dirname "$0")/.."
workers=${DEMO_WORKERS:-4}
rounds=${DEMO_ROUNDS:-10}   # fashion.conf says 20; 10 keeps the 4-worker job near a minute
scripts/install-deps.sh
# Only the three programs the demo runs (scripts/build.sh builds everything, tests included).
if [ ! -f build/CMakeCache.txt ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build build -j "$(nproc)" --target treering treering-submit treering-data
bin=build/bin
out=demo/out
mkdir -p "$out"
if [ ! -s "$out/fashion.test.libsvm" ]; then
  /usr/bin/python3 "$(pwd)/demo/fashion_mnist_to_libsvm.py" "$out"
fi
rm -f "$out/fashion.model.json" "$out/fashion.pred.txt"

echo "== 1. data layer"
"$bin/treering-data" info "$out/fashion.train.libsvm" | grep -E '^(uri|rows|columns|MB/s)'
"$bin/treering-data" info "$out/fashion.test.libsvm" | grep -E '^(uri|rows|columns|MB/s)'

echo
echo "== 2. train on $workers workers: treering-submit --cluster local --num-workers $workers" \
  "-- treering demo/fashion.conf nthread=1 num_round=$rounds"
"$bin/treering-submit" --cluster local --num-workers "$workers" -- \
  "$bin/treering" demo/fashion.conf nthread=1 num_round="$rounds"

echo
echo "== 3. the model file (written by rank 0 only)"
ls -l "$out"/*.json
/usr/bin/python3 - "$out/fashion.model.json" <<'PY'
import json
import sys
m = json.load(open(sys.argv[1]))
learner = m["learner"]
model = learner["gradient_booster"]["model"]
print("XGBoost %s JSON: objective %s, %s classes, %d features, %d trees" % (
    ".".join(map(str, m["version"])), learner["objective"]["name"],
    learner["learner_model_param"]["num_class"], int(learner["learner_model_param"]["num_feature"]),
    len(model["trees"])))
PY

echo
echo "== 4. predict the test set on $workers workers"
"$bin/treering-submit" --cluster local --num-workers "$workers" -- \
  "$bin/treering" demo/fashion.conf nthread=1 task=pred model_in="$out/fashion.model.json" \
  test:data="$out/fashion.test.libsvm" name_pred="$out/fashion.pred.txt"
/usr/bin/python3 - "$out" <<'PY'
import sys
out = sys.argv[1]
labels = [int(float(l.split(None, 1)[0])) for l in open(out + "/fashion.test.libsvm")]
preds = [int(float(l)) for l in open(out + "/fashion.pred.txt")]
acc = sum(p == y for p, y in zip(preds, labels)) / len(labels)
print("treering test accuracy: %.4f (%d rows)" % (acc, len(labels)))
PY

echo
echo "== 5. XGBoost 1.7 loads treering's model"
/usr/bin/python3 - "$out" <<'PY'
import sys
import numpy as np
import xgboost as xgb
out = sys.argv[1]
bst = xgb.Booster(model_file=out + "/fashion.model.json")
d = xgb.DMatrix(out + "/fashion.test.libsvm?format=libsvm")
xp = bst.predict(d).astype(int)
tp = np.array([int(float(l)) for l in open(out + "/fashion.pred.txt")])
print("xgboost %s agrees with treering on %d of %d test rows" % (
    xgb.__version__, (xp == tp).sum(), len(tp)))
PY
