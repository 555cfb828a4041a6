#!/usr/bin/env bash
# The README's demo command: installs dependencies, builds the three programs the demo runs,
# converts Fashion-MNIST (Debian's dataset-fashion-mnist) to LibSVM, then runs the main job
# distributed, as a user would on a cluster, with as many local workers as the machine has cores
# (at most 4; DEMO_WORKERS overrides):
#   1. the data layer loads both files (rows, columns, MB/s);
#   2. treering-submit starts the tracker and the `treering` workers; each loads its share of the
#      rows and they train one 10-class hist GBDT from an XGBoost-style config file: per-round
#      metric lines (rank 0, through the tracker), the timing summary and the distributed
#      timing report (T_comp, T_sync, bytes per round, predicted speedup); then the same rounds
#      in one process using every core, and the two wall times side by side: a worker per core
#      is what pays, more workers than cores only share them;
#   3. the model file rank 0 wrote (the only one: ranks 1-3 hold the same model in memory);
#   4. 4 workers predict the test set (each its shard, gathered in row order); test accuracy;
#   5. python3-xgboost 1.7 loads treering's JSON model and predicts the same classes;
#   6. the same job from Python, `import treering as xgb` (python-package/, the library from
#      build/lib): train, predict, the test accuracy next to the CLI's.
set -euo pipefail
cd "$(dirname "$0")/.."
cores=$(nproc)
# One single-threaded worker per core: on a 2-core machine 4 workers would only take turns.
workers=${DEMO_WORKERS:-$((cores < 4 ? cores : 4))}
rounds=${DEMO_ROUNDS:-10}   # fashion.conf says 20; 10 keeps the distributed job near a minute
scripts/install-deps.sh
# Only the three programs the demo runs (scripts/build.sh builds everything, tests included).
if [ ! -f build/CMakeCache.txt ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build build -j "$(nproc)" --target treering treering-submit treering-data treering_shared
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

now_ms() { echo $(($(date +%s%N) / 1000000)); }
echo
echo "== 2. train on $workers workers: treering-submit --cluster local --num-workers $workers" \
  "-- treering demo/fashion.conf nthread=1 num_round=$rounds"
start=$(now_ms)
"$bin/treering-submit" --cluster local --num-workers "$workers" -- \
  "$bin/treering" demo/fashion.conf nthread=1 num_round="$rounds"
dist_ms=$(($(now_ms) - start))
echo
echo "== 2b. the same $rounds rounds in one process with nthread=$cores (model not kept)"
start=$(now_ms)
"$bin/treering" demo/fashion.conf nthread="$cores" num_round="$rounds" verbosity=0 \
  model_out="$out/fashion.single.model.json" >/dev/null
single_ms=$(($(now_ms) - start))
rm -f "$out/fashion.single.model.json"
awk -v w="$workers" -v d="$dist_ms" -v c="$cores" -v s="$single_ms" 'BEGIN {
  printf "%d workers x 1 thread: %.1f s; 1 process x %d threads: %.1f s; speed-up %.2fx\n",
         w, d / 1000, c, s / 1000, s / d }'
if [ "$workers" -gt "$cores" ]; then
  echo "This machine has $cores cores for $workers workers: they take turns, so no speed-up" \
    "is possible here; on $workers machines (or cores) each worker gets its own."
elif [ "$cores" -le 2 ]; then
  echo "With $cores cores one process already uses them all: distributing gains nothing here" \
    "beyond the same speed; the workers pay off when each has a machine of its own."
fi

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

echo
echo "== 6. the same job from Python: import treering as xgb"
PYTHONPATH=python-package /usr/bin/python3 - "$out" "$rounds" "$cores" "$workers" <<'PY'
import sys
import time

import numpy as np
import treering as xgb  # an XGBoost script changes only this line

out, rounds, cores, workers = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
start = time.perf_counter()
dtrain = xgb.DMatrix(out + "/fashion.train.libsvm?format=libsvm", silent=True)
dtest = xgb.DMatrix(out + "/fashion.test.libsvm?format=libsvm", silent=True)
params = {"objective": "multi:softmax", "num_class": 10, "tree_method": "hist", "max_bin": 256,
          "max_depth": 6, "eta": 0.3, "nthread": cores, "eval_metric": ["merror", "mlogloss"]}
history = {}
bst = xgb.train(params, dtrain, num_boost_round=rounds, evals=[(dtest, "test")],
                evals_result=history, verbose_eval=False)
pred = bst.predict(dtest)
seconds = time.perf_counter() - start
cli = np.array([int(float(line)) for line in open(out + "/fashion.pred.txt")])
labels = dtest.get_label()
print("Python, %d rounds in %.1f s: test merror %.4f, accuracy %.4f" % (
    rounds, seconds, history["test"]["merror"][-1], float(np.mean(pred == labels))))
print("CLI on %s workers: accuracy %.4f; Python and CLI agree on %d of %d test rows" % (
    workers, float(np.mean(cli == labels)), int(np.sum(pred.astype(int) == cli)), len(cli)))
PY
