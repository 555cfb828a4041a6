#!/usr/bin/env bash
# Learning to rank: treering against XGBoost 1.7's CLI on one generated MSLR-shaped set
# (bench/boost/rank_data.py: query groups of 10..200 documents, 50 features, relevance 0..4,
# qid: in the LibSVM rows), with the same config, alternating runs after one warm-up of each.
#
# usage: bench/boost/rank_bench.sh [QUERIES] [-- key=value ...]   (run from anywhere)
#   QUERIES  training queries (default 3000, ~315k rows); the test set has a fifth of them
#   key=value  appended to both command lines (objective=rank:pairwise, num_round=20, ...)
#   REPEATS=3  TREERING=build/bin/treering
# Data goes to bench/out (never committed). Prints median wall time, test ndcg@10 and peak RSS
# of both, and the ratios treering / xgboost; on a loaded machine the CPU time (user + system)
# says more than the wall time.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/bench/out
py=/usr/bin/python3
repeats=${REPEATS:-3}
treering=$(realpath "${TREERING:-$root/build/bin/treering}")
queries=3000
if (($#)) && [ "$1" != "--" ]; then queries=$1; shift; fi
[ "${1:-}" = "--" ] && shift
extra=("$@")
[ -x "$treering" ] || { echo "no $treering: build the treering target" >&2; exit 1; }
command -v xgboost > /dev/null || { echo "no xgboost CLI (Debian package xgboost)" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

train=$out/rank$queries.train.libsvm test=$out/rank$queries.test.libsvm
if [ ! -s "$train" ] || [ ! -s "$test" ]; then
  mkdir -p "$out"
  echo "making $train and $test" >&2
  "$py" "$root/bench/boost/rank_data.py" "$train" "$queries" 7
  "$py" "$root/bench/boost/rank_data.py" "$test" $((queries / 5)) 8
fi

conf=$scratch/rank.conf
cat > "$conf" <<CONF
booster = gbtree
objective = rank:ndcg
tree_method = hist
max_bin = 256
max_depth = 8
eta = 0.1
nthread = 2
eval_metric = ndcg@10
eval_metric = map
num_round = 50
data = "$train?format=libsvm"
eval[test] = "$test?format=libsvm"
CONF

run_one() {  # $1 = treering|xgboost; prints "wall rss cpu" (cpu = user + system seconds)
  local log=$scratch/$1.log exe=xgboost
  [ "$1" = treering ] && exe=$treering
  /usr/bin/time -v "$exe" "$conf" model_out="$scratch/$1.model" "${extra[@]}" > "$log" 2>&1 ||
    { echo "$1 failed:" >&2; tail -5 "$log" >&2; exit 1; }
  echo "$(awk '/Elapsed \(wall/ {n = split($8, t, ":"); print t[n - 1] * 60 + t[n]}' "$log") \
$(awk '/Maximum resident/ {print $6}' "$log") \
$(awk '/User time|System time/ {s += $4} END {print s}' "$log")"
}
last_metric() { grep -o "test-$2:[0-9.eE+-]*" "$1" | tail -1 | cut -d: -f2; }
median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

run_one treering > /dev/null; run_one xgboost > /dev/null
tw=(); tr_=(); tc=(); xw=(); xr=(); xc=()
for ((i = 0; i < repeats; i++)); do
  read -r w r c < <(run_one treering); tw+=("$w"); tr_+=("$r"); tc+=("$c")
  read -r w r c < <(run_one xgboost); xw+=("$w"); xr+=("$r"); xc+=("$c")
done
awk -v q="$queries" -v rows="$(wc -l < "$train")" -v n="$repeats" \
    -v tw="$(echo "${tw[@]}" | median)" -v xw="$(echo "${xw[@]}" | median)" \
    -v tm="$(last_metric "$scratch/treering.log" 'ndcg@10')" \
    -v xm="$(last_metric "$scratch/xgboost.log" 'ndcg@10')" \
    -v tc="$(echo "${tc[@]}" | median)" -v xc="$(echo "${xc[@]}" | median)" \
    -v trss="$(echo "${tr_[@]}" | median)" -v xrss="$(echo "${xr[@]}" | median)" \
    -v load="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN {
  printf "rank%d: %d queries, %d rows (median of %d, load average %s)\n", q, q, rows, n, load
  printf "  wall        treering %7.2f s   xgboost %7.2f s   ratio %.2f\n", tw, xw, tw / xw
  printf "  cpu (u+s)   treering %7.2f s   xgboost %7.2f s   ratio %.2f\n", tc, xc, tc / xc
  printf "  test-ndcg@10 treering %.6f   xgboost %.6f\n", tm, xm
  printf "  peak RSS    treering %7.0f MB  xgboost %7.0f MB  ratio %.2f\n", trss / 1024, xrss / 1024, trss / xrss
}'
