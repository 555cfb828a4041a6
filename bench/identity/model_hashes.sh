#!/usr/bin/env bash
# The models a refactoring must not change: trains each set the benchmarks and tests use with
# one build's treering (and treering-submit for the worker counts) and prints the sha256 of
# every model file. Run it with the build before and after a change and compare the lists
# (`diff <(... BIN=old/bin) <(... BIN=new/bin)`): any line that differs is a changed model.
#
# usage: bench/identity/model_hashes.sh [SET...]      (run from anywhere)
#   SET   higgs1m reg1m fashion rank1000 categorical dart data_w2 voting_w2 data_w4 voting_w4
#         allreduce_w2 vote2_w2 vote2_w4 mlp_w1 mlp_w2 (default: all)
#   BIN=build/bin   the build to use; OUT=bench/out holds the generated data (never committed)
# Sizes are cut so that the whole list takes a few minutes on 2 cores: the configs are the
# benchmarks' (../shared/bench/xgb, demo/fashion.conf), with fewer rounds where noted.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(realpath "${BIN:-$root/build/bin}")
out=${OUT:-$root/bench/out}
py=/usr/bin/python3
conf_dir=$root/../shared/bench/xgb
data_dir=$root/../shared/bench/data
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
[ -x "$bin/treering" ] || { echo "no $bin/treering: build first" >&2; exit 1; }
[ -d "$conf_dir" ] || { echo "no $conf_dir: shared/ must be beside the repository" >&2; exit 1; }
mkdir -p "$out"

need() {  # $1 = data set; makes it in $out when absent
  case $1 in
    higgs1m | reg1m)
      [ -s "$out/$1.train.libsvm" ] && return
      local task=(); [ "$1" = reg1m ] && task=(--task reg)
      "$py" "$data_dir/make_synthetic.py" "$out" --rows 1000000 "${task[@]}" >&2 ;;
    fashion)
      [ -s "$out/fashion.train.libsvm" ] || "$py" "$data_dir/fashion_mnist_to_libsvm.py" "$out" >&2 ;;
    rank1000)
      [ -s "$out/rank1000.train.libsvm" ] ||
        "$py" "$root/bench/boost/rank_data.py" "$out/rank1000.train.libsvm" 1000 7 >&2 ;;
  esac
}

# bench/boost/categorical_bench.sh's set, 100k rows.
make_categorical() {
  local data=$out/categorical100000.libsvm
  [ -s "$data" ] && return
  "$py" "$root/bench/boost/categorical_data.py" "$data" 100000
}

higgs=(data="$out/higgs1m.train.libsvm?format=libsvm" eval[test]="$out/higgs1m.test.libsvm?format=libsvm")
run() {  # $1 = set; trains it, model in $scratch (.json; .mlp for the MLP)
  local s=$1 model=$scratch/$1.json
  [[ $s == mlp_* ]] && model=$scratch/$1.mlp
  case $s in
    higgs1m) need higgs1m
      "$bin/treering" "$conf_dir/higgs1m.conf" "${higgs[@]}" num_round=30 model_out="$model" ;;
    reg1m) need reg1m
      "$bin/treering" "$conf_dir/reg1m.conf" data="$out/reg1m.train.libsvm?format=libsvm" \
        eval[test]="$out/reg1m.test.libsvm?format=libsvm" num_round=30 model_out="$model" ;;
    fashion) need fashion
      "$bin/treering" "$root/demo/fashion.conf" data="$out/fashion.train.libsvm?format=libsvm" \
        eval[test]="$out/fashion.test.libsvm?format=libsvm" num_round=4 model_out="$model" ;;
    rank1000) need rank1000
      "$bin/treering" /dev/null objective=rank:ndcg tree_method=hist max_depth=8 eta=0.1 \
        eval_metric=ndcg@10 num_round=20 data="$out/rank1000.train.libsvm?format=libsvm" \
        model_out="$model" ;;
    categorical) make_categorical
      "$bin/treering" /dev/null data="$out/categorical100000.libsvm?format=libsvm" \
        tree_method=hist objective=reg:squarederror max_depth=6 eta=0.3 num_round=20 \
        feature_types=c,c,c,c,q,q,q,q model_out="$model" ;;
    dart) need higgs1m
      "$bin/treering" "$conf_dir/higgs1m.conf" "${higgs[@]}" booster=dart rate_drop=0.1 \
        skip_drop=0.3 num_round=15 model_out="$model" ;;
    data_w* | voting_w* | allreduce_w* | vote2_w*) need higgs1m
      # vote2: tree_learner=voting with top_k=2, so that not every feature is elected (with the
      # default top_k every one of higgs's 28 is, and voting grows data's trees).
      local learner=(tree_learner="${s%_w*}")
      [[ $s == vote2_* ]] && learner=(tree_learner=voting top_k=2)
      "$bin/treering-submit" --cluster local --num-workers "${s##*_w}" -- "$bin/treering" \
        "$conf_dir/higgs1m.conf" "${higgs[@]}" nthread=1 num_round=10 "${learner[@]}" \
        model_out="$model" ;;
    mlp_w*) need fashion
      local keys=(/dev/null booster=mlp objective=multi:softmax num_class=10 nthread=1 epochs=1
                  data="$out/fashion.train.libsvm" eval[test]="$out/fashion.test.libsvm"
                  eval_metric=merror model_out="$model")
      if [ "${s##*_w}" = 1 ]; then
        "$bin/treering" "${keys[@]}"
      else
        "$bin/treering-submit" --cluster local --num-workers "${s##*_w}" -- "$bin/treering" "${keys[@]}"
      fi ;;
    *) echo "unknown set $s" >&2; exit 2 ;;
  esac > "$scratch/$s.log" 2>&1 || { echo "$s failed:" >&2; tail -5 "$scratch/$s.log" >&2; exit 1; }
  echo "$(sha256sum < "$model" | cut -c1-64)  $s"
}

sets=("$@")
((${#sets[@]})) || sets=(higgs1m reg1m fashion rank1000 categorical dart data_w2 voting_w2
                          data_w4 voting_w4 allreduce_w2 vote2_w2 vote2_w4 mlp_w1 mlp_w2)
for s in "${sets[@]}"; do run "$s"; done
