#!/usr/bin/env bash
# Issue 34's cost goal: worker-count-independent models may cost at most 5 % more time per
# round than before. Runs the same job with two builds of treering, BASE (before) and NEW (this
# tree), interleaved (B N B N ...) after one warm-up each, on higgs1m and Fashion-MNIST
# (../shared/bench/xgb/*.conf, data in bench/out, made by bench/dist/dist_bench.sh and
# scripts/demo.sh) with 2 and 4 workers under treering-submit --cluster local, nthread=1.
#
# usage: BASE=/path/to/old/bin NEW=build/bin REPEATS=3 HIGGS_ROUNDS=10 FASHION_ROUNDS=5 \
#          SETS="higgs1m fashion" WORKERS="2 4" bench/indep/indep_bench.sh
# Prints per configuration the medians of the rounds time per round (timing report) and of
# the set-up time (rank 0's: the sketch and the binned matrix), and NEW/BASE ratios.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
base=$(realpath "${BASE:?BASE=bin directory of the build to compare with}")
new=$(realpath "${NEW:-$root/build/bin}")
repeats=${REPEATS:-3}
out=${OUT:-$root/bench/out}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
declare -A rounds_of=([higgs1m]=${HIGGS_ROUNDS:-10} [fashion]=${FASHION_ROUNDS:-5})

# run BIN DATASET WORKERS -> "setup_s per_round_s"
run() {
  local bin=$1 set=$2 w=$3 log=$scratch/run.log
  (cd "$out" && "$bin/treering-submit" --cluster local --num-workers "$w" -- "$bin/treering" \
    "$root/../shared/bench/xgb/$set.conf" nthread=1 num_round="${rounds_of[$set]}" \
    model_out="$scratch/m.json" >"$log" 2>&1) || { tail -5 "$log" >&2; exit 1; }
  local setup
  setup=$(grep -o 'setup [0-9.]* s' "$log" | head -1 | awk '{print $2}')
  grep -o 'timing: [0-9]* rounds on [0-9]* workers in [0-9.]* s' "$log" | head -1 |
    awk -v s="$setup" '{printf "%.3f %.4f\n", s, $8 / $2}'
}
median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

echo "load before: $(uptime)"
printf '%-8s %2s %10s %10s %6s %10s %9s %6s\n' data w base_rnd_s new_rnd_s ratio base_setup new_setup ratio
for set in ${SETS:-higgs1m fashion}; do
  for w in ${WORKERS:-2 4}; do
    run "$base" $set $w >/dev/null; run "$new" $set $w >/dev/null  # warm-up
    br="" nr="" bw="" nw=""
    for ((i = 0; i < repeats; i++)); do
      read -r a b < <(run "$base" $set $w); bw+=" $a"; br+=" $b"
      read -r a b < <(run "$new" $set $w); nw+=" $a"; nr+=" $b"
    done
    mbr=$(echo "$br" | median); mnr=$(echo "$nr" | median)
    mbw=$(echo "$bw" | median); mnw=$(echo "$nw" | median)
    awk -v s=$set -v w=$w -v br="$mbr" -v nr="$mnr" -v bw="$mbw" -v nw="$mnw" \
      'BEGIN {printf "%-8s %2d %10.4f %10.4f %6.3f %10.2f %9.2f %6.3f\n", s, w, br, nr, nr / br, bw, nw, nw / bw}'
  done
done
echo "load after:  $(uptime)"
