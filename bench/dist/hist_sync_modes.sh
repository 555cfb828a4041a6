#!/usr/bin/env bash
# The histogram synchronisations side by side (tree_learner=allreduce vs data, the
# feature-owner reduce-scatter, vs voting, PV-Tree) on Fashion-MNIST (the demo's shape) or the
# HIGGS-like 1M rows:
#   1w x 2t            one process, nthread=2 (the time 2 workers should come near)
#   {allreduce,data,voting} x {2,4} workers x 1 thread under treering-submit --cluster local
# in interleaved repeats (every configuration sees the same share of the machine's load).
# Prints medians of wall time and the timing report (T_comp, T_sync, bytes handed to
# collectives per round: a reduce-scatter counts this rank's slice), the last round's first
# test metric (fashion: merror, higgs1m: auc), the model's md5 (allreduce and data must write
# the same bytes; voting's differ unless top_k covers every feature) and the 2w x 1t / 1w x 2t
# wall ratio (goal <= 1.15).
#
# usage: bench/dist/hist_sync_modes.sh fashion|higgs1m [key=value ...]   (e.g. top_k=10)
#   REPEATS=3 ROUNDS=10 (fashion; higgs1m keeps its config's 100 unless ROUNDS is set)
#   CONFIGS="w1t2 data_w4 voting_w4" runs only those; OUT=dir holds the data (bench/out)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
set_name=${1:?usage: hist_sync_modes.sh fashion|higgs1m [key=value ...]}
shift
extra=("$@")
# shellcheck source=timed_runs.sh
source "$root/bench/dist/timed_runs.sh"
case $set_name in
  fashion)
    conf=$root/demo/fashion.conf
    data=(data="$out/fashion.train.libsvm?format=libsvm" eval[test]="$out/fashion.test.libsvm?format=libsvm"
          num_round="${ROUNDS:-10}")
    [ -s "$out/fashion.train.libsvm" ] || { echo "no $out/fashion.train.libsvm (bench/boost makes it)" >&2; exit 1; }
    ;;
  higgs1m)
    conf=$root/../shared/bench/xgb/higgs1m.conf
    data=()
    [ -n "${ROUNDS:-}" ] && data=(num_round="$ROUNDS")
    [ -s "$out/higgs1m.train.libsvm" ] || { echo "no $out/higgs1m.train.libsvm (run bench/dist/dist_bench.sh)" >&2; exit 1; }
    ;;
  *) echo "unknown set $set_name" >&2; exit 1 ;;
esac
read -r -a configs <<<"${CONFIGS:-w1t2 allreduce_w2 data_w2 voting_w2 allreduce_w4 data_w4 voting_w4}"

run_one() {
  local c=$1 model=$scratch/$1.json cmd
  local base=("${data[@]}" model_out="$model" "${extra[@]}")
  case $c in
    w1t2) cmd=("$treering" "$conf" nthread=2 "${base[@]}") ;;
    *_w*) cmd=("$submit" --cluster local --num-workers "${c##*_w}" -- "$treering" "$conf"
               nthread=1 tree_learner="${c%_w*}" "${base[@]}") ;;
  esac
  timed_run "$c" "${cmd[@]}"
}

# The last round's first test metric ("[9]	test-merror:0.1234	...").
last_metric() { grep -oE '^\[[0-9]+\]	test-[a-z@]+:[0-9.e-]+' "$1" | tail -1 | sed 's/.*://'; }

echo "set $set_name, load before: $(uptime)"
declare -A walls comp sync ratio bytes metric
for ((i = 0; i < repeats; i++)); do
  for c in "${configs[@]}"; do
    walls[$c]+=" $(run_one "$c")"
    read -r _ tc ts q b < <(timing_fields "$scratch/$c.log" || echo "- - - - -")
    comp[$c]+=" $tc"; sync[$c]+=" $ts"; ratio[$c]+=" $q"; bytes[$c]+=" $b"
    metric[$c]=$(last_metric "$scratch/$c.log" || echo -)
  done
done
echo "load after:  $(uptime)"
printf '%-13s %8s %8s %8s %9s %11s %10s %s\n' config wall_s T_comp T_sync sync/comp bytes/rnd \
  test_metric model_md5
for c in "${configs[@]}"; do
  med() { echo "$1" | median; }
  printf '%-13s %8s %8s %8s %9s %11s %10s %s\n' "$c" "$(med "${walls[$c]}")" "$(med "${comp[$c]}")" \
    "$(med "${sync[$c]}")" "$(med "${ratio[$c]}")" "$(med "${bytes[$c]}")" "${metric[$c]}" \
    "$(md5sum <"$scratch/$c.json" | cut -c1-12)"
done
[ -n "${walls[w1t2]:-}" ] || exit 0
w1=$(echo "${walls[w1t2]}" | median)
for m in allreduce data voting; do
  [ -n "${walls[${m}_w2]:-}" ] || continue
  w2=$(echo "${walls[${m}_w2]}" | median)
  awk -v a="$w2" -v b="$w1" -v m="$m" 'BEGIN {printf "%s: wall 2w x 1t / 1w x 2t = %.3f (goal <= 1.15)\n", m, a / b}'
done
