#!/usr/bin/env bash
# No-failure cost of the robust engine: the same boosting job (higgs-like data, W workers x 1
# thread under treering-submit) with rabit_engine=socket and rabit_engine=robust, interleaved,
# REPS times each; prints per-run wall and per-round times, the medians and robust/socket.
# usage: bench/fault/overhead.sh BUILD_DIR [WORKERS=2] [ROUNDS=50] [REPS=5]
#        ROWS=1000000 (env) rows of generated data; reuses bench/out/higgs1m.* when ROWS=1000000.
set -euo pipefail
build=$(realpath "$1") workers=${2:-2} rounds=${3:-50} reps=${4:-5} rows=${ROWS:-1000000}
here=$(dirname "$(realpath "$0")")
root=$(realpath "$here/../..")
out=$root/bench/out
synth=$root/../shared/bench/data/make_synthetic.py
py=/usr/bin/python3
mkdir -p "$out"
name=higgs1m
[ "$rows" = 1000000 ] || name=higgs$rows
if [ ! -s "$out/$name.train.libsvm" ]; then
  echo "making $out/$name.{train,test}.libsvm" >&2
  "$py" "$synth" "$out" --rows "$rows" --name "$name"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "# $(date -u +%FT%TZ) load: $(uptime | sed 's/.*load average: //')"
echo "# $workers workers x nthread=1, $rounds rounds, depth 8, max_bin 256, data $name"
run() {  # $1 = engine; prints "wall per_round"
  "$build/bin/treering-submit" --cluster local --num-workers "$workers" -- \
    "$build/bin/treering" /dev/null objective=binary:logistic tree_method=hist max_bin=256 \
    max_depth=8 eta=0.1 nthread=1 num_round="$rounds" data="$out/$name.train.libsvm" \
    model_out="$work/$1.json" rabit_engine="$1" verbosity=1 > "$work/$1.log" 2>&1
  local wall boost
  wall=$(grep -o 'job succeeded; wall time [0-9.]*' "$work/$1.log" | awk '{print $NF}')
  boost=$(grep -o 'boosting [0-9.]* s' "$work/$1.log" | head -1 | awk '{print $2}')
  echo "$wall $(awk -v b="$boost" -v r="$rounds" 'BEGIN {printf "%.4f", b / r}')"
}
median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
: > "$work/socket.txt"; : > "$work/robust.txt"
for ((i = 1; i <= reps; ++i)); do
  for engine in socket robust; do
    r=$(run $engine)
    echo "$r" >> "$work/$engine.txt"
    echo "rep $i $engine: wall $(echo "$r" | cut -d' ' -f1) s, boosting per round $(echo "$r" | cut -d' ' -f2) s"
  done
done
cmp -s "$work/socket.json" "$work/robust.json" && echo "models: identical" || echo "models: DIFFER"
for col in 1 2; do
  s=$(cut -d' ' -f$col "$work/socket.txt" | median)
  r=$(cut -d' ' -f$col "$work/robust.txt" | median)
  what=$([ $col = 1 ] && echo "wall" || echo "per round")
  echo "median $what: socket $s s, robust $r s, robust/socket $(awk -v a="$r" -v b="$s" 'BEGIN {printf "%.3f", a / b}')"
done
