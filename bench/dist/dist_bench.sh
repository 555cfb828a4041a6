#!/usr/bin/env bash
# Distributed boosting on the 2-core machine: the same config (HIGGS-like 1M rows,
# ../shared/bench/xgb/higgs1m.conf beside the repository) run as
#   1w x 2t  one process, nthread=2 (no launcher)
#   2w x 1t  treering-submit --cluster local --num-workers 2, nthread=1
#   4w x 1t  4 workers, nthread=1 (oversubscribed: shows the cost of communication)
#   1w x 1t  one process, nthread=1: the single-worker time the timing report compares with
#   xgb 2w   XGBoost 1.7's CLI as 2 workers under treering-submit (its legacy protocol)
# in interleaved rounds (A B C D X, A B C D X, ...) after one warm-up of each, so every
# configuration sees the same page cache and the same share of the machine's load.
#
# usage: bench/dist/dist_bench.sh [key=value ...]   (run from anywhere; pairs go to every run)
#   REPEATS=3  TREERING=build/bin/treering  SUBMIT=build/bin/treering-submit  XGB=1 (0: skip)
# Prints medians per configuration: wall time, the timing report's rounds time, T_comp,
# T_sync, T_sync/T_comp, bytes handed to collectives per round, predicted and measured speedup,
# and the test AUC of each model scored by python3-xgboost on the whole test file; then the
# 2w x 1t / 1w x 2t wall-time ratio (goal <= 1.15).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=timed_runs.sh
source "$root/bench/dist/timed_runs.sh"
conf=$root/../shared/bench/xgb/higgs1m.conf
py=/usr/bin/python3
use_xgb=${XGB:-1}
command -v xgboost >/dev/null || use_xgb=0
extra=("$@")
[ -x "$treering" ] && [ -x "$submit" ] || { echo "build treering and treering-submit" >&2; exit 1; }
[ -f "$conf" ] || { echo "no $conf: shared/ must be beside the repository" >&2; exit 1; }

if [ ! -s "$out/higgs1m.train.libsvm" ]; then
  mkdir -p "$out"
  "$py" "$root/../shared/bench/data/make_synthetic.py" "$out" --rows 1000000 >&2
fi

configs=(w1t2 w2t1 w4t1 w1t1)
((use_xgb)) && configs+=(xgb2)

# Runs one configuration; leaves its log and model in $scratch; prints wall s.
run_one() {
  local c=$1 model=$scratch/$1.json cmd
  local base=(model_out="$model" "${extra[@]}")
  case $c in
    w1t2) cmd=("$treering" "$conf" nthread=2 "${base[@]}") ;;
    w1t1) cmd=("$treering" "$conf" nthread=1 "${base[@]}") ;;
    w2t1) cmd=("$submit" --cluster local --num-workers 2 -- "$treering" "$conf" nthread=1
               single_worker_seconds="$single" "${base[@]}") ;;
    w4t1) cmd=("$submit" --cluster local --num-workers 4 -- "$treering" "$conf" nthread=1
               single_worker_seconds="$single" "${base[@]}") ;;
    xgb2) cmd=("$submit" --cluster local --num-workers 2 -- xgboost "$conf" nthread=1
               "${base[@]}") ;;
  esac
  timed_run "$c" "${cmd[@]}"
}

# Fields of the timing report in a log: rounds_s T_comp T_sync ratio bytes predicted measured.
report_fields() {
  local fields l2
  fields=$(timing_fields "$1") || { echo "- - - - - - -"; return; }
  l2=$(grep -o 'timing: speedup predicted.*' "$1" | head -1 || true)
  echo -n "$fields "
  # "... = 2*0.0940/(0.0940+0.0067) = 1.51; measured 1.602/1.007 = 1.59 (...)"
  echo "$l2" | awk -F'; measured ' '{n = split($1, a, " = "); p = a[n]; m = "-"
    if (NF > 1) {split($2, b, " = "); split(b[2], c, " "); m = c[1]} print p, m}'
}

echo "load before: $(uptime)"
single=0
for c in "${configs[@]}"; do run_one "$c" >/dev/null; done  # warm-up (page cache, binaries)
single=$(report_fields "$scratch/w1t1.log" | awk '{print $1}')
declare -A walls rounds comp sync ratio bytes pred meas
for ((i = 0; i < repeats; i++)); do
  for c in "${configs[@]}"; do
    walls[$c]+=" $(run_one "$c")"
    if [ "$c" = w1t1 ]; then single=$(report_fields "$scratch/w1t1.log" | awk '{print $1}'); fi
    read -r r tc ts q b p m < <(report_fields "$scratch/$c.log")
    rounds[$c]+=" $r"; comp[$c]+=" $tc"; sync[$c]+=" $ts"; ratio[$c]+=" $q"; bytes[$c]+=" $b"
    pred[$c]+=" $p"; meas[$c]+=" $m"
  done
done
echo "load after:  $(uptime)"

models=()
for c in "${configs[@]}"; do models+=("$scratch/$c.json"); done
declare -A auc
while read -r path value; do auc[$(basename "$path" .json)]=$value; done \
  < <("$py" "$root/bench/dist/model_auc.py" "$out/higgs1m.test.libsvm" "${models[@]}")

printf '%-9s %8s %9s %8s %8s %8s %10s %6s %6s %9s\n' config wall_s rounds_s T_comp T_sync \
  sync/comp bytes/rnd pred meas test_auc
for c in "${configs[@]}"; do
  med() { echo "$1" | median; }
  printf '%-9s %8s %9s %8s %8s %8s %10s %6s %6s %9s\n' "$c" "$(med "${walls[$c]}")" \
    "$(med "${rounds[$c]}" | sed 's/^-$/-/')" "$(med "${comp[$c]}")" "$(med "${sync[$c]}")" \
    "$(med "${ratio[$c]}")" "$(med "${bytes[$c]}")" "$(med "${pred[$c]}")" \
    "$(med "${meas[$c]}")" "${auc[$c]:--}"
done
w1=$(echo "${walls[w1t2]}" | median); w2=$(echo "${walls[w2t1]}" | median)
awk -v a="$w2" -v b="$w1" 'BEGIN {printf "wall ratio 2w x 1t / 1w x 2t = %.3f (goal <= 1.15)\n", a / b}'
if ((use_xgb)); then
  awk -v a="${auc[w2t1]}" -v b="${auc[xgb2]}" \
    'BEGIN {d = a - b; if (d < 0) d = -d; printf "test AUC, 2 workers: treering %s, xgboost %s, |diff| %.6f (goal <= 0.002)\n", a, b, d}'
fi
echo "(rounds_s, T_comp, T_sync, bytes: treering's timing report, means over workers; meas: "
echo " speedup over the 1w x 1t rounds time; xgboost prints no timing report)"
