#!/usr/bin/env bash
# The per-round cost of an elastic job's resize agreement (docs/fault-tolerance.md, "Elastic
# jobs"): the same failure-free boosting job under the robust engine with and without
# rabit_elastic, 4 local workers, many short rounds so that per-round costs show. Elastic adds
# a non-blocking poll of the tracker connection and a third u64 to the commit barrier's
# Allreduce each round. Prints the median tracker wall time of each and the ratio.
#   bash bench/fault/elastic_overhead.sh BUILD_DIR [REPEATS] [ROUNDS]
# XGBoost has no elastic mode to compare with; the reference is treering's own robust engine.
set -euo pipefail
build=${1:?BUILD_DIR}
repeats=${2:-7}
rounds=${3:-400}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 - "$work/train.libsvm" <<'PY'
import random, sys
rng = random.Random(1)
with open(sys.argv[1], "w") as f:
    for _ in range(4000):
        x = [rng.gauss(0, 1) for _ in range(8)]
        f.write("%d %s\n" % (x[0] + x[1] > 0, " ".join("%d:%.4f" % (i, v) for i, v in enumerate(x))))
PY
run() {  # $1 = extra env; prints the tracker's wall time
  env $1 "$build/bin/treering-submit" --cluster local --num-workers 4 -- "$build/bin/treering" \
    /dev/null data="$work/train.libsvm" num_round="$rounds" max_depth=2 nthread=1 \
    rabit_engine=robust model_out="$work/m.json" 2>&1 |
    sed -n 's/.*\[tracker\] job finished; wall time \([0-9.]*\) s.*/\1/p'
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
plain=() elastic=()
# Interleaved, and in alternating order: the second job of a pair runs ~6 % slower whichever
# it is (an A/A run showed it), so a fixed order would bias the ratio.
for i in $(seq "$repeats"); do
  if ((i % 2)); then
    plain+=("$(run TREERING_ELASTIC=0)")
    elastic+=("$(run TREERING_ELASTIC=1)")
  else
    elastic+=("$(run TREERING_ELASTIC=1)")
    plain+=("$(run TREERING_ELASTIC=0)")
  fi
done
echo "plain: ${plain[*]}"; echo "elastic: ${elastic[*]}"
p=$(printf '%s\n' "${plain[@]}" | median)
e=$(printf '%s\n' "${elastic[@]}" | median)
echo "robust, $rounds rounds, 4 workers, median of $repeats: plain $p s, elastic $e s"
awk -v p="$p" -v e="$e" -v r="$rounds" 'BEGIN {
  printf "elastic / plain = %.3f; %+.1f us per round\n", e / p, (e - p) / r * 1e6 }'
