#!/usr/bin/env bash
# Boosting under faults (the robust engine): `treering` trains 4 workers on generated data with
# row and column sampling; SIGKILLed and mock-killed workers are restarted and the final model
# file must be byte-identical to the failure-free run's (run_trials.py compares SHA-256). The
# eval set makes rank 0 print a line per round, which is what places the faults.
# usage: robust_boost_trials.sh TREERING_SUBMIT TREERING [TRIALS=6] [SEED=31]
set -euo pipefail
submit=$(realpath "$1") treering=$(realpath "$2") trials=${3:-6} seed=${4:-31}
here=$(dirname "$(realpath "$0")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 - "$work/train.libsvm" <<'PY'
import random, sys
rng = random.Random(5)
with open(sys.argv[1], "w") as f:
    for _ in range(8000):
        x = [rng.gauss(0, 1) for _ in range(12)]
        y = 1 if x[0] + 0.5 * x[1] * x[2] - x[3] + rng.gauss(0, 0.5) > 0 else 0
        f.write(str(y) + " " + " ".join("%d:%.5f" % (i, v) for i, v in enumerate(x)) + "\n")
PY
exec /usr/bin/python3 "$here/run_trials.py" --submit "$submit" --workers 4 --attempts 4 \
  --trials "$trials" --seed "$seed" --faults kill,mock --mock-versions 40 --mock-seqnos 4 \
  --digest-file model.json --workdir "$work" -- \
  "$treering" /dev/null data=train.libsvm "eval[train]=train.libsvm" objective=binary:logistic \
  num_round=40 max_depth=6 \
  nthread=1 subsample=0.8 colsample_bynode=0.8 seed=3 model_out=model.json rabit_timeout=10 \
  rabit_bootstrap_timeout=5
