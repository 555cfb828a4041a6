#!/usr/bin/env bash
# Byte-identical forests between two treering builds (issue 35 item 2: the row partition, the
# left-out rows' leaves and the margins must not change a model): each config is trained by
# both binaries, the model files are compared with cmp and so is every printed metric line
# (eval[train] reads the training margins, which the rows left out of a sample get from a
# walk down the tree). Data: heads of the bench sets in bench/out (identity_lib.sh).
#
# usage: bench/boost/forest_identity.sh OLD_TREERING NEW_TREERING
#   SUBMIT=build/bin/treering-submit (the 2-worker configs; skipped when absent)
set -euo pipefail
# shellcheck source=bench/identity/identity_lib.sh
source "$(dirname "$0")/../identity/identity_lib.sh"
identity_start "$1" "$2"
identity_heads 40000 4000 1000 30000 30000
rf="num_parallel_tree=4 num_round=2 subsample=0.8 colsample_bynode=0.8"
higgs="data=$d/higgs.libsvm objective=binary:logistic eval[train]=$d/higgs.libsvm"
fashion="data=$d/fashion.libsvm objective=multi:softprob num_class=10 eval[train]=$d/fashion.libsvm"
reg="data=$d/reg.libsvm eval[train]=$d/reg.libsvm"
configs=(
  "rf_dense_1thread|$higgs $rf nthread=1"
  "rf_dense_2threads|$higgs $rf nthread=2"
  "rf_no_sampling|$higgs num_parallel_tree=3 num_round=2 nthread=2"
  "rf_colsample_only|$higgs num_parallel_tree=3 num_round=2 colsample_bynode=0.8 nthread=2"
  "rf_subsample_only_1thread|$higgs num_parallel_tree=3 num_round=2 subsample=0.7 nthread=1"
  "boosted_forest|$higgs num_parallel_tree=3 num_round=5 subsample=0.6 eta=0.3 nthread=2"
  "gbtree_subsample|$higgs num_round=8 subsample=0.5 eta=0.3 nthread=2"
  "rf_lossguide|$higgs $rf grow_policy=lossguide max_leaves=40 max_depth=0 nthread=2"
  "rf_maxbin1000|$higgs $rf max_bin=1000 nthread=2"
  "rf_min_data_in_leaf|$higgs $rf min_data_in_leaf=30 nthread=2"
  "rf_dart|$higgs num_round=4 subsample=0.7 booster=dart rate_drop=0.3 nthread=2"
  "rf_exact|$higgs num_parallel_tree=4 num_round=2 subsample=0.8 tree_method=exact nthread=2"
  "rf_multiclass_dense|$higgs objective=multi:softprob num_class=2 $rf nthread=2"
  "rf_quantiles_dense|$higgs objective=reg:quantileerror quantile_alpha=[0.2,0.8] $rf nthread=2"
  "rf_multiclass_sparse|$fashion $rf nthread=2 max_depth=5"
  "rf_multiclass_lossguide|$fashion $rf grow_policy=lossguide max_leaves=24 max_bin=64 nthread=1"
  "rf_absoluteerror|$reg objective=reg:absoluteerror $rf nthread=2"
  "gbtree_absoluteerror_subsample|$reg objective=reg:absoluteerror num_round=6 subsample=0.7 nthread=2"
  "rf_quantile|$reg objective=reg:quantileerror quantile_alpha=0.3 $rf nthread=2"
  "gbtree_quantile_subsample|$reg objective=reg:quantileerror quantile_alpha=0.7 num_round=6 subsample=0.7 nthread=1"
  "rf_ranking_bincolumns|data=$d/rank.libsvm eval[train]=$d/rank.libsvm objective=rank:pairwise $rf nthread=2"
  "rf_categorical|data=$d/cat.libsvm eval[train]=$d/cat.libsvm feature_types=c,c,c,c,q,q,q,q $rf nthread=2"
)
common="tree_method=hist max_depth=7 eta=1 reg_lambda=1e-5"
same() {  # $1 = name: the model files and the metric lines
  local metrics=same
  cmp -s <(grep -o '[a-z]*-[a-z@0-9]*:[-0-9.e]*' "$d/$1.old.json.log") \
         <(grep -o '[a-z]*-[a-z@0-9]*:[-0-9.e]*' "$d/$1.new.json.log") || metrics=DIFFERENT
  if cmp -s "$d/$1.old.json" "$d/$1.new.json" && [ $metrics = same ]; then
    echo "$1 identical ($(stat -c %s "$d/$1.new.json") bytes, $(grep -c 'train-' "$d/$1.new.json.log") metric lines)"
  else echo "$1 DIFFERENT (metrics $metrics)"; fail=1; fi
}
for c in "${configs[@]}"; do
  name=${c%%|*}
  # shellcheck disable=SC2086
  train "$old" "$d/$name.old.json" ${c#*|}
  # shellcheck disable=SC2086
  train "$new" "$d/$name.new.json" ${c#*|}
  same "$name"
done
if [ -x "$submit" ]; then
  for set in "rf_dense|$higgs" "rf_sparse|$fashion max_depth=5" \
             "rf_voting|$higgs tree_learner=voting top_k=3"; do
    name=2workers_${set%%|*}
    for v in old new; do
      bin=$old; [ $v = new ] && bin=$new
      # shellcheck disable=SC2086
      train_2workers "$bin" "$d/$name.$v.json" ${set#*|} $rf
    done
    same "$name"
  done
else
  echo "no $submit: 2-worker configs skipped" >&2
fi
exit $fail
