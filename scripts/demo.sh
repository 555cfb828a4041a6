#!/usr/bin/env bash
# The README's demo command: installs dependencies, builds, converts Fashion-MNIST (Debian's
# dataset-fashion-mnist) to LibSVM, then runs the main job and shows its result:
#   1. the data layer loads both files (rows, columns, label counts, MB/s);
#   2. treering trains a 10-class hist GBDT with an XGBoost-style config file;
#   3. it predicts the test set and the demo prints the accuracy;
#   4. python3-xgboost 1.7 loads treering's JSON model and predicts the same classes.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh build
bin=build/bin
out=demo/out
mkdir -p "$out"
if [ ! -s "$out/fashion.test.libsvm" ]; then
  /usr/bin/python3 "$(pwd)/demo/fashion_mnist_to_libsvm.py" "$out"
fi

echo "== 1. data layer"
"$bin/treering-data" info "$out/fashion.train.libsvm"
"$bin/treering-data" info "$out/fashion.test.libsvm"

echo "== 2. train (treering demo/fashion.conf)"
"$bin/treering" demo/fashion.conf

echo "== 3. predict the test set"
"$bin/treering" demo/fashion.conf task=pred model_in="$out/fashion.model.json" \
  test:data="$out/fashion.test.libsvm" name_pred="$out/fashion.pred.txt"
/usr/bin/python3 - "$out" <<'PY'
import sys
out = sys.argv[1]
labels = [int(float(l.split(None, 1)[0])) for l in open(out + "/fashion.test.libsvm")]
preds = [int(float(l)) for l in open(out + "/fashion.pred.txt")]
acc = sum(p == y for p, y in zip(preds, labels)) / len(labels)
print("treering test accuracy: %.4f (%d rows)" % (acc, len(labels)))
PY

echo "== 4. XGBoost 1.7 loads treering's model"
/usr/bin/python3 - "$out" <<'PY'
import sys
import numpy as np
import xgboost as xgb
out = sys.argv[1]
bst = xgb.Booster(model_file=out + "/fashion.model.json")
d = xgb.DMatrix(out + "/fashion.test.libsvm?format=libsvm")
xp = bst.predict(d).astype(int)
tp = np.array([int(float(l)) for l in open(out + "/fashion.pred.txt")])
print("xgboost agrees with treering on %d of %d test rows" % ((xp == tp).sum(), len(tp)))
PY
