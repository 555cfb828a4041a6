# shellcheck shell=bash disable=SC2034,SC2154  # the variables are the caller's
# Sourced (not run) by the scripts that train the same configs with two treering builds and
# compare the models: bench/memory/model_identity.sh and bench/boost/forest_identity.sh. It
# holds what they share: their arguments, a scratch directory with heads of the bench sets
# in bench/out (made by boost_bench.sh / fashion_bench.sh / rank_bench.sh /
# categorical_bench.sh), one training call and one 2-worker training call.
#
# The caller sets `common` (keys every config gets) and then calls
#   identity_start OLD NEW          sets old, new, submit, d (removed at exit), fail=0
#   identity_heads H F FT R C       the first H higgs1m, F fashion train, FT fashion test,
#                                   R reg1m and C categorical rows into $d (plus rank1000)
#   train BIN MODEL ARGS...         BIN trains MODEL in $d from $common ARGS
#   train_2workers BIN MODEL ARGS.. the same on 2 workers under treering-submit
identity_start() {
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  old=$(realpath "$1")
  new=$(realpath "$2")
  submit=${SUBMIT:-$root/build/bin/treering-submit}
  src=${BENCH_OUT:-$root/bench/out}
  d=$(mktemp -d)
  trap 'rm -rf "$d"' EXIT
  fail=0
}

identity_heads() {
  head -"$1" "$src/higgs1m.train.libsvm" > "$d/higgs.libsvm"
  head -"$2" "$src/fashion.train.libsvm" > "$d/fashion.libsvm"
  head -"$3" "$src/fashion.test.libsvm" > "$d/fashion.test.libsvm"
  head -"$4" "$src/reg1m.train.libsvm" > "$d/reg.libsvm"
  head -"$5" "$src/categorical100000.libsvm" > "$d/cat.libsvm"
  cp "$src/rank1000.train.libsvm" "$d/rank.libsvm"
}

train() {  # $1 = binary, $2 = model, rest = args; its output goes to $2.log
  local bin=$1 model=$2
  shift 2
  # shellcheck disable=SC2086
  (cd "$d" && "$bin" /dev/null $common "$@" model_out="$model" > "$model.log" 2>&1) ||
    { echo "FAILED: $bin $*" >&2; tail -2 "$model.log" >&2; fail=1; }
}

train_2workers() {  # as train, on 2 workers of one thread
  local bin=$1 model=$2
  shift 2
  # shellcheck disable=SC2086
  (cd "$d" && "$submit" --cluster local --num-workers 2 --bind-to none -- "$bin" /dev/null \
     $common "$@" nthread=1 model_out="$model" > "$model.log" 2>&1) ||
    { echo "FAILED: 2 workers $bin $*" >&2; tail -3 "$model.log" >&2; fail=1; }
}
