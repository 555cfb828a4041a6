#!/usr/bin/env bash
# The neural mode under faults (the robust engine): `treering booster=mlp` trains 4 workers with
# a rabit checkpoint after every epoch; SIGKILLed and mock-killed workers are restarted and the
# final model file must be byte-identical to the failure-free run's (SHA-256 compared).
# usage: robust_mlp_trials.sh TREERING_SUBMIT TREERING [TRIALS=4] [SEED=41]
set -euo pipefail
submit=$(realpath "$1") treering=$(realpath "$2") trials=${3:-4} seed=${4:-41}
here=$(dirname "$(realpath "$0")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 - "$work/train.libsvm" <<'PY'
import random, sys
rng = random.Random(7)
with open(sys.argv[1], "w") as f:
    for _ in range(20000):  # ~0.3 s idle: long enough for faults placed by epoch to land
        x = [rng.gauss(0, 1) for _ in range(10)]
        y = (0 if x[0] + x[1] > 0.5 else 1 if x[2] - x[3] > 0 else 2)
        f.write(str(y) + " " + " ".join("%d:%.5f" % (i, v) for i, v in enumerate(x)) + "\n")
PY
exec /usr/bin/python3 "$here/run_trials.py" --submit "$submit" --workers 4 --attempts 4 \
  --trials "$trials" --seed "$seed" --faults kill,mock --mock-versions 12 --mock-seqnos 20 \
  --digest-file model.mlp --workdir "$work" -- \
  "$treering" /dev/null booster=mlp data=train.libsvm "eval[train]=train.libsvm" \
  objective=multi:softprob num_class=3 hidden_layers=16,8 batch_size=32 epochs=12 nthread=1 \
  seed=3 model_out=model.mlp rabit_timeout=10 rabit_bootstrap_timeout=5
