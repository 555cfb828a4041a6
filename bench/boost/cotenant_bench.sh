#!/usr/bin/env bash
# Sharing the machine (issue 33 goal 4): higgs1m, 50 rounds, by treering and XGBoost 1.7's CLI,
# each run quiet and then beside BUSY co-tenants (busy-looping shells, as other jobs on a shared
# node), alternating programs; prints median walls and loaded / quiet ratios.
#
# usage: bench/boost/cotenant_bench.sh [key=value ...]   (appended to both command lines)
#   REPEATS=3  BUSY=2 (co-tenant processes)  TREERING=build/bin/treering
#   VARIANTS="default passive:OMP_WAIT_POLICY=passive"  extra treering runs: label[:VAR=value,...]
#     ("default" = no environment change; xgboost always runs with the environment as given)
#   OUT=bench/out  where higgs1m.{train,test}.libsvm are (made there if absent)
# The machine's load average is printed before and after: another job makes "quiet" not quiet.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-$root/bench/out}
conf=$root/../shared/bench/xgb/higgs1m.conf
py=/usr/bin/python3
repeats=${REPEATS:-3}
busy=${BUSY:-2}
read -r -a variants <<< "${VARIANTS:-default passive:OMP_WAIT_POLICY=passive}"
treering=$(realpath "${TREERING:-$root/build/bin/treering}")
[ -x "$treering" ] || { echo "no $treering: build the treering target" >&2; exit 1; }
[ -x /usr/bin/xgboost ] || { echo "no /usr/bin/xgboost (Debian's xgboost package)" >&2; exit 77; }
[ -f "$conf" ] || { echo "no $conf: shared/ must be beside the repository" >&2; exit 1; }
if [ ! -s "$out/higgs1m.train.libsvm" ]; then
  mkdir -p "$out"
  "$py" "$root/../shared/bench/data/make_synthetic.py" "$out" --rows 1000000
fi
scratch=$(mktemp -d)
tenants=()
stop_tenants() {
  for pid in "${tenants[@]}"; do kill "$pid" 2> /dev/null || true; done
  for pid in "${tenants[@]}"; do wait "$pid" 2> /dev/null || true; done
  tenants=()
}
trap 'stop_tenants; rm -rf "$scratch"' EXIT
trap 'exit 130' INT TERM
start_tenants() {
  for ((i = 0; i < busy; i++)); do
    bash -c 'while :; do :; done' &
    tenants+=($!)
  done
  sleep 0.5  # let the scheduler see them as running
}

# $1 = label, $2 = comma-separated VAR=value list ("" for none), $3 = program; prints wall s.
run_one() {
  local label=$1 envs=$2 prog=$3 env_args=()
  shift 3
  [ -n "$envs" ] && IFS=, read -r -a env_args <<< "$envs"
  (cd "$out" && env "${env_args[@]}" /usr/bin/time -f '%e %U %S' -o "$scratch/$label.time" \
     "$prog" "$conf" num_round=50 model_out="$scratch/$label.model" "$@" > "$scratch/$label.log" 2>&1) ||
    { echo "$label failed:" >&2; tail -5 "$scratch/$label.log" >&2; exit 1; }
  awk '{printf "%s %.2f\n", $1, $2 + $3}' "$scratch/$label.time"  # wall, CPU (user + sys)
}
extra=("$@")
run() { run_one "$1" "$2" "$3" "${extra[@]}"; }

median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

labels=(); for v in "${variants[@]}"; do labels+=("treering-${v%%:*}"); done; labels+=(xgboost)
env_of() {  # label -> env list
  [ "$1" = xgboost ] && { echo ""; return; }
  for v in "${variants[@]}"; do
    if [ "treering-${v%%:*}" = "$1" ]; then [[ $v == *:* ]] && echo "${v#*:}" || echo ""; fi
  done
}
prog_of() { [ "$1" = xgboost ] && echo /usr/bin/xgboost || echo "$treering"; }

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)   cores: $(nproc)   repeats: $repeats"
declare -A quiet loaded quiet_cpu loaded_cpu
for l in "${labels[@]}"; do run "$l" "$(env_of "$l")" "$(prog_of "$l")" > /dev/null; done  # warm-up
for phase in quiet loaded; do
  [ "$phase" = loaded ] && start_tenants
  for ((i = 0; i < repeats; i++)); do
    for l in "${labels[@]}"; do
      read -r w c < <(run "$l" "$(env_of "$l")" "$(prog_of "$l")")
      if [ "$phase" = quiet ]; then
        quiet[$l]+=" $w"; quiet_cpu[$l]+=" $c"
      else
        loaded[$l]+=" $w"; loaded_cpu[$l]+=" $c"
      fi
    done
  done
  [ "$phase" = loaded ] && stop_tenants
done
echo "load after:  $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-26s %8s %9s %8s %9s %13s   %s\n' program "quiet s" "quiet cpu" "loaded s" "loaded cpu" \
  "loaded/quiet" "runs quiet | loaded (wall)"
xq=$(echo "${quiet[xgboost]}" | median)
for l in "${labels[@]}"; do
  q=$(echo "${quiet[$l]}" | median); b=$(echo "${loaded[$l]}" | median)
  qc=$(echo "${quiet_cpu[$l]}" | median); bc=$(echo "${loaded_cpu[$l]}" | median)
  awk -v l="$l" -v q="$q" -v b="$b" -v qc="$qc" -v bc="$bc" -v xq="$xq" -v rq="${quiet[$l]}" \
    -v rb="${loaded[$l]}" 'BEGIN {printf "%-26s %8.2f %9.2f %8.2f %9.2f %13.2f   %s |%s   (quiet vs xgboost %.2f)\n", l, q, qc, b, bc, b / q, rq, rb, q / xq}'
done
