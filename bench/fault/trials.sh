#!/usr/bin/env bash
# The full fault-injection trial set (docs/fault-tolerance.md): TRIALS trials each against
#   1. fault_worker (versioned allreduce/broadcast rounds with CheckPoint), faults cycling
#      through SIGKILL (rank 0 / two ring neighbours at once / 1-3 random ranks) and mock=;
#   2. boosting, `treering` training 4 workers on generated data, SIGKILL faults; the digest is
#      the SHA-256 of the model file;
# each checked against its failure-free run. EXPECT=recover (default) needs the robust engine;
# EXPECT=fail checks that the plain engine fails every trial cleanly naming a victim.
# usage: bench/fault/trials.sh BUILD_DIR [TRIALS] [SEED]      (EXPECT=fail|recover in env)
set -euo pipefail
build=$(realpath "$1") trials=${2:-24} seed=${3:-1} expect=${EXPECT:-recover}
here=$(dirname "$(realpath "$0")")
driver=(python3 "$here/../../tests/fault/run_trials.py" --submit "$build/bin/treering-submit"
        --workers 4 --attempts 4 --trials "$trials" --seed "$seed" --expect "$expect" --quiet)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "# $(date -u +%FT%TZ) $(uptime)"
echo "## fault_worker: 30 rounds x (allreduce 8 KB, allreduce, broadcast), 40 ms per round"
faults=kill,kill,mock engine=rabit_engine=robust
[ "$expect" = fail ] && faults=kill engine=rabit_engine=socket
rc=0
"${driver[@]}" --faults "$faults" --mock-versions 30 --mock-seqnos 3 -- \
  "$build/tests/fault_worker" fault_rounds=30 fault_sleep_ms=40 rabit_timeout=10 "$engine" || rc=1
echo "## boosting: treering, 4 workers, 20000 x 20 binary, 30 rounds, depth 6"
python3 - "$work/train.libsvm" <<'PY'
import random, sys
rng = random.Random(5)
with open(sys.argv[1], "w") as f:
    for _ in range(20000):
        x = [rng.gauss(0, 1) for _ in range(20)]
        y = 1 if x[0] + 0.5 * x[1] * x[2] - x[3] + rng.gauss(0, 0.5) > 0 else 0
        f.write(str(y) + " " + " ".join("%d:%.5f" % (i, v) for i, v in enumerate(x)) + "\n")
PY
"${driver[@]}" --faults kill --digest-file model.json --workdir "$work" -- \
  "$build/bin/treering" /dev/null data=train.libsvm objective=binary:logistic num_round=30 \
  "eval[train]=train.libsvm" max_depth=6 nthread=1 model_out=model.json rabit_timeout=10 "$engine" || rc=1
exit $rc
