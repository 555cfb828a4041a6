#!/usr/bin/env bash
# Job launch + rendezvous overhead: XGBoost 1.7's CLI workers (legacy protocol) training one
# round on tiny data, started by treering-submit (our tracker) and by XGBoost's own Python
# RabitTracker (the peer, as dmlc-submit runs it). Prints the median wall time of REPS runs per
# world size and the ratio ours / peer (below 1 = faster).
# usage: bench/tracker/launch_bench.sh [BUILD_DIR] [REPS]
set -euo pipefail
BUILD=$(realpath "${1:-build}")
REPS=${2:-7}
HERE=$(cd "$(dirname "$0")" && pwd)
SUBMIT=$BUILD/bin/treering-submit
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
/usr/bin/python3 -c '
import numpy as np
rng = np.random.default_rng(1)
x = rng.integers(0, 5, size=(2000, 5))
with open("tiny.libsvm", "w") as f:
    for row in x:
        f.write(str(int(row[0] > 2)) + " " + " ".join("%d:%d" % (j, v) for j, v in enumerate(row)) + "\n")
'
printf 'objective = binary:logistic\ntree_method = hist\nnum_round = 1\nnthread = 1\ndata = "tiny.libsvm?format=libsvm"\nmodel_out = "m.json"\n' >tiny.conf

median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
ours_once() {
  local t0 t1
  t0=$(date +%s.%N)
  "$SUBMIT" --cluster local --num-workers "$1" -- xgboost tiny.conf >/dev/null 2>&1
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l
}
peer_once() { /usr/bin/python3 "$HERE/python_tracker_launch.py" "$1" xgboost tiny.conf; }

printf '%-8s %14s %14s %8s\n' workers "treering (s)" "xgb-py (s)" ratio
for n in 2 4 8; do
  ours=() peer=()
  ours_once "$n" >/dev/null; peer_once "$n" >/dev/null  # warm-up (page cache, Python imports)
  for _ in $(seq "$REPS"); do  # alternate, so background load hits both alike
    ours+=("$(ours_once "$n")")
    peer+=("$(peer_once "$n")")
  done
  mo=$(printf '%s\n' "${ours[@]}" | median)
  mp=$(printf '%s\n' "${peer[@]}" | median)
  printf '%-8s %14.3f %14.3f %8.2f\n' "$n" "$mo" "$mp" "$(echo "$mo / $mp" | bc -l)"
done
