#!/bin/bash
# External memory on higgs10m (issue 33, goal 2): treering in memory, treering from binned pages
# on disk (`#cacheprefix` URI) with a max_memory cap below the binned matrix's size, and
# XGBoost 1.7's CLI in memory and with its own `#cache` URI, in one run. Prints wall, peak RSS
# (/usr/bin/time -v), seconds per round and the ratios; checks the paged model is
# byte-identical to the in-memory one.
#
# usage: bench/data/extmem_bench.sh [DATA_DIR] [ROUNDS] [CAP_MIB]
#   DATA_DIR (default bench/out) gets higgs10m.{train,test}.libsvm from
#   ../shared/bench/data/make_synthetic.py when missing (3.3 GB; never commit it).
#   XGB_EXT_ROUNDS (default 2): rounds of XGBoost's own external-memory run.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:-$here/bench/out}
rounds=${2:-10}
cap=${3:-450}
bin=$here/build/bin/treering
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
if [ ! -f "$dir/higgs10m.train.libsvm" ]; then
  /usr/bin/python3 "$here/../shared/bench/data/make_synthetic.py" "$dir" --rows 10000000
fi
head -n 10000 "$dir/higgs10m.test.libsvm" > "$dir/higgs10m.eval10k.libsvm"
mkdir -p "$dir/extmem-cache"
common=(objective=binary:logistic tree_method=hist max_bin=256 max_depth=8 eta=0.1 nthread=2
        eval_metric=auc num_round=$rounds "eval[test]=higgs10m.eval10k.libsvm?format=libsvm")

# run NAME CMD...: wall seconds, peak RSS MiB and seconds per round (from the round lines'
# HH:MM:SS stamps for xgboost, from treering's own timing line) into $NAME.{wall,rss,round}
run() {
  local name=$1; shift
  (cd "$dir" && /usr/bin/time -v "$@" > "$name.out" 2> "$name.err")
  grep "Elapsed (wall" "$dir/$name.err" | awk '{print $NF}' |
    awk -F: '{ s = 0; for (i = 1; i <= NF; ++i) s = s * 60 + $i; print s }' > "$dir/$name.wall"
  grep "Maximum resident" "$dir/$name.err" | awk '{printf "%.0f\n", $NF / 1024}' > "$dir/$name.rss"
  if grep -q "rounds in" "$dir/$name.err"; then
    grep "rounds in" "$dir/$name.err" | sed 's/.*boosting \([0-9.]*\) s.*/\1/' |
      awk -v n="$rounds" '{printf "%.3f\n", $1 / n}' > "$dir/$name.round"
  else  # xgboost: [HH:MM:SS] [i]\ttest-auc:... on stderr, one per round
    grep -E '^\[[0-9:]+\] \[[0-9]+\]' "$dir/$name.err" | sed 's/^\[\([0-9:]*\)\].*/\1/' |
      awk -F: '{ t = $1 * 3600 + $2 * 60 + $3; if (NR == 1) f = t; l = t; n = NR }
               END { if (n > 1) printf "%.3f\n", (l - f) / (n - 1); else print "nan" }' \
        > "$dir/$name.round"
  fi
  echo "$name: wall $(cat "$dir/$name.wall") s, peak RSS $(cat "$dir/$name.rss") MiB," \
       "per round $(cat "$dir/$name.round") s"
}

run tr_mem "$bin" /dev/null "data=higgs10m.train.libsvm?format=libsvm" model_out=tr_mem.json \
  "${common[@]}" verbosity=2
run tr_ext "$bin" /dev/null "data=higgs10m.train.libsvm?format=libsvm#extmem-cache/h10" \
  model_out=tr_ext.json max_memory=$cap "${common[@]}" verbosity=2
if cmp -s "$dir/tr_mem.json" "$dir/tr_ext.json"; then same=yes; else same=NO; fi
echo "paged model byte-identical to in-memory: $same"
echo "cache files left: $(ls "$dir/extmem-cache" | wc -l)"
if [ -x /usr/bin/xgboost ]; then
  xconf=(booster=gbtree "${common[@]}")
  printf '%s\n' "${xconf[@]}" | sed 's/=\(.*\)/ = "\1"/; s/^eval_metric = "auc"/eval_metric = auc/' \
    > "$dir/xgb_extmem.conf"
  run xgb_mem /usr/bin/xgboost xgb_extmem.conf "data=higgs10m.train.libsvm?format=libsvm" \
    model_out=xgb_mem.model
  # XGBoost's external memory took ~5 min a round on higgs10m here: XGB_EXT_ROUNDS (2) rounds
  run xgb_ext /usr/bin/xgboost xgb_extmem.conf \
    "data=higgs10m.train.libsvm?format=libsvm#extmem-cache/xgb" model_out=xgb_ext.model \
    num_round=${XGB_EXT_ROUNDS:-2}
  rm -f "$dir"/extmem-cache/xgb*
else
  echo "SKIP: /usr/bin/xgboost not installed: no XGBoost columns"
fi
r() { awk -v a="$(cat "$dir/$1")" -v b="$(cat "$dir/$2")" 'BEGIN { printf "%.2fx", a / b }'; }
echo "binned matrix: $((10000000 * 28 * 2 / 1048576)) MiB (row-major + column copy); cap $cap MiB"
echo "paged / in-memory: per round $(r tr_ext.round tr_mem.round), wall $(r tr_ext.wall tr_mem.wall)," \
     "peak RSS $(r tr_ext.rss tr_mem.rss)"
if [ -x /usr/bin/xgboost ]; then
  echo "treering in memory / XGBoost in memory: peak RSS $(r tr_mem.rss xgb_mem.rss)," \
       "wall $(r tr_mem.wall xgb_mem.wall)"
  echo "treering paged / XGBoost #cache: peak RSS $(r tr_ext.rss xgb_ext.rss)," \
       "wall $(r tr_ext.wall xgb_ext.wall), per round $(r tr_ext.round xgb_ext.round)"
fi
