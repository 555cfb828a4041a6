#!/usr/bin/env bash
# Byte-identical models between two treering builds (issue 33 goal 3: narrower structures must
# not change a model): 12 configs on one process and 2 on 2 workers, each trained by both
# binaries and compared with cmp. Data: heads of the bench sets in bench/out
# (bench/identity/identity_lib.sh).
#
# usage: bench/memory/model_identity.sh OLD_TREERING NEW_TREERING
#   SUBMIT=build/bin/treering-submit (the 2-worker configs; skipped when absent)
set -euo pipefail
# shellcheck source=bench/identity/identity_lib.sh
source "$(dirname "$0")/../identity/identity_lib.sh"
identity_start "$1" "$2"
identity_heads 50000 6000 1000 50000 30000
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
same() {  # $1 = name
  if cmp -s "$d/$1.old" "$d/$1.new"; then echo "$1 identical ($(stat -c %s "$d/$1.new") bytes)"
  else echo "$1 DIFFERENT"; fail=1; fi
}
for c in "${configs[@]}"; do
  name=${c%%|*}
  # shellcheck disable=SC2086
  train "$old" "$d/$name.old" ${c#*|}
  # shellcheck disable=SC2086
  train "$new" "$d/$name.new" ${c#*|}
  same "$name"
done
if [ -x "$submit" ]; then
  for set in "sparse|$fashion" "dense|data=$d/higgs.libsvm objective=binary:logistic"; do
    name=2workers_${set%%|*}
    for v in old new; do
      bin=$old; [ $v = new ] && bin=$new
      # shellcheck disable=SC2086
      train_2workers "$bin" "$d/$name.$v" ${set#*|}
    done
    same "$name"
  done
else
  echo "no $submit: 2-worker configs skipped" >&2
fi
exit $fail
