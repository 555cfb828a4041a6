#!/usr/bin/env bash
# Byte-identical models between two treering builds (issue 33 goal 3: narrower structures must
# not change a model): 12 configs on one process and 2 on 2 workers, each trained by both
# binaries and compared with cmp. Data: heads of the bench sets in bench/out (made by
# boost_bench.sh / fashion_bench.sh / rank_bench.sh / categorical_bench.sh).
#
# usage: bench/memory/model_identity.sh OLD_TREERING NEW_TREERING
#   SUBMIT=build/bin/treering-submit (the 2-worker configs; skipped when absent)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
old=$(realpath "$1"); new=$(realpath "$2")
submit=${SUBMIT:-$root/build/bin/treering-submit}
src=${BENCH_OUT:-$root/bench/out}
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
head -50000 "$src/higgs1m.train.libsvm" > "$d/higgs.libsvm"
head -6000 "$src/fashion.train.libsvm" > "$d/fashion.libsvm"
head -1000 "$src/fashion.test.libsvm" > "$d/fashion.test.libsvm"
head -50000 "$src/reg1m.train.libsvm" > "$d/reg.libsvm"
cp "$src/rank1000.train.libsvm" "$d/rank.libsvm"
head -30000 "$src/categorical100000.libsvm" > "$d/cat.libsvm"
common="tree_method=hist num_round=8 max_depth=6 eta=0.3"
fashion="data=$d/fashion.libsvm objective=multi:softmax num_class=10"
configs=(
  "binary_1thread|data=$d/higgs.libsvm objective=binary:logistic nthread=1"
  "binary_2threads|data=$d/higgs.libsvm objective=binary:logistic nthread=2"
  "multiclass|$fashion nthread=2 eval[test]=$d/fashion.test.libsvm"
  "multiclass_bylevel_subsample|$fashion nthread=1 colsample_bylevel=0.5 subsample=0.8"
  "multiclass_bynode_lossguide|$fashion nthread=2 colsample_bynode=0.4 grow_policy=lossguide max_leaves=24 max_bin=64"
  "multiclass_eval_on_train|$fashion nthread=2 eval[train]=$d/fashion.libsvm"
  "ranking|data=$d/rank.libsvm objective=rank:pairwise nthread=2"
  "regression_maxbin1024|data=$d/reg.libsvm objective=reg:squarederror nthread=2 max_bin=1024"
  "regression_l1|data=$d/reg.libsvm objective=reg:absoluteerror nthread=2"
  "forest_sparse|$fashion nthread=2 num_parallel_tree=3 subsample=0.8 colsample_bynode=0.8"
  "forest_dense|data=$d/higgs.libsvm objective=binary:logistic nthread=2 num_parallel_tree=4 subsample=0.5"
  "sparse_maxbin512|data=$d/cat.libsvm objective=reg:squarederror nthread=2 max_bin=512"
)
fail=0
train() {  # $1 = binary, $2 = model, rest = args
  local bin=$1 model=$2; shift 2
  (cd "$d" && "$bin" /dev/null $common "$@" model_out="$model" > "$model.log" 2>&1) ||
    { echo "FAILED: $bin $*" >&2; tail -2 "$model.log" >&2; fail=1; }
}
same() {  # $1 = name
  if cmp -s "$d/$1.old" "$d/$1.new"; then echo "$1 identical ($(stat -c %s "$d/$1.new") bytes)"
  else echo "$1 DIFFERENT"; fail=1; fi
}
for c in "${configs[@]}"; do
  name=${c%%|*}
  # shellcheck disable=SC2086
  train "$old" "$d/$name.old" ${c#*|}; train "$new" "$d/$name.new" ${c#*|}
  same "$name"
done
if [ -x "$submit" ]; then
  for set in "sparse|$fashion" "dense|data=$d/higgs.libsvm objective=binary:logistic"; do
    name=2workers_${set%%|*}
    for v in old new; do
      bin=$old; [ $v = new ] && bin=$new
      # shellcheck disable=SC2086
      (cd "$d" && "$submit" --cluster local --num-workers 2 --bind-to none -- "$bin" /dev/null \
         $common ${set#*|} nthread=1 model_out="$d/$name.$v" > "$d/$name.$v.log" 2>&1) ||
        { echo "FAILED: $name $v" >&2; fail=1; }
    done
    same "$name"
  done
else
  echo "no $submit: 2-worker configs skipped" >&2
fi
exit $fail
