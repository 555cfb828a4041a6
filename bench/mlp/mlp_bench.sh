#!/usr/bin/env bash
# booster=mlp acceptance and speed run (not a unit test), Fashion-MNIST 784-256-128-10, batch 64
# per worker, default keys, one thread per worker:
#   1. accuracy: 10 epochs with 1, 2 and 4 workers (treering-submit --cluster local): final
#      test accuracy (goal >= 0.885) and median training time per epoch;
#   2. speed vs PyTorch (python3-torch, if installed; bench/mlp/torch_mlp.py, the reference SGD
#      configuration): EPOCHS epochs each, treering and torch runs interleaved REPS times,
#      median epoch time of each and the ratio treering / torch, for 1 and 2 workers;
#   3. CPU seconds per epoch, 1 worker: (CPU of an EPOCHS+2-epoch run - CPU of a 2-epoch run) / EPOCHS
#      for both programs, interleaved; start-up, loading and imports cancel out, and CPU time
#      is far less sensitive to other jobs on a shared machine than wall time.
# usage: bench/mlp/mlp_bench.sh [DATA_DIR=bench/out/mlp]   (env: REPS=3 EPOCHS=3 WORKERS="1 2 4")
# Run `uptime` alongside: the machine is shared and the ratio is the number that survives load.
set -euo pipefail
cd "$(dirname "$0")/../.."
# One thread per worker for both programs: torch's BLAS is Debian's OpenBLAS, whose own thread
# pool would otherwise spin on the second core (inflating torch's CPU time and stealing ours).
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
bin=${BIN:-build/bin}
data=${1:-$PWD/bench/out/mlp}  # $PWD: the repository root (cd above)
reps=${REPS:-3}
epochs=${EPOCHS:-3}
workers=${WORKERS-"1 2 4"}  # WORKERS="" skips part 1
mkdir -p "$data"
if [ ! -s "$data/fashion.test.libsvm" ]; then
  /usr/bin/python3 demo/fashion_mnist_to_libsvm.py "$data" > /dev/null
fi
conf="$data/mlp.conf"
cat > "$conf" <<CONF
booster = mlp
objective = multi:softmax
num_class = 10
data = $data/fashion.train.libsvm
eval[test] = $data/fashion.test.libsvm
eval_metric = merror
model_out = $data/fashion.mlp
nthread = 1
CONF

# Runs treering on $1 workers with extra keys; prints "<final accuracy> <median epoch s>".
run_treering() {
  local w=$1
  shift
  local out
  if [ "$w" -eq 1 ]; then
    out=$("$bin/treering" "$conf" "$@" 2>&1)
  else
    out=$("$bin/treering-submit" --cluster local --num-workers "$w" -- "$bin/treering" "$conf" "$@" 2>&1)
  fi
  echo "$out" > "$data/last_treering_w$w.log"
  /usr/bin/python3 - "$data/last_treering_w$w.log" <<'PY'
import re, statistics, sys
text = open(sys.argv[1]).read()
merror = [float(m) for m in re.findall(r"test-merror:([0-9.]+)", text)]
epochs = [float(m) for m in re.findall(r"\tepoch:([0-9.]+)s", text)]
print("%.4f %.3f" % (1 - merror[-1], statistics.median(epochs)))
PY
}

run_torch() {
  /usr/bin/python3 bench/mlp/torch_mlp.py --world "$1" --epochs "$epochs" 2>/dev/null |
    /usr/bin/python3 -c 'import json,sys; s=json.loads(sys.stdin.read().splitlines()[-1]); print("%.4f %.3f" % (s["final_test_acc"], s["median_epoch_s"]))'
}

echo "== load: $(uptime)"
echo "== 1. accuracy, 10 epochs, defaults"
for w in $workers; do
  read -r acc sec < <(run_treering "$w" epochs=10)
  echo "treering workers=$w effective_batch=$((64 * w)) test_accuracy=$acc median_epoch_s=$sec"
done

if ! /usr/bin/python3 -c 'import torch' 2> /dev/null; then
  echo "== 2. skipped: python3-torch is not installed"
  exit 0
fi
echo "== 2. speed vs PyTorch, $epochs epochs, $reps interleaved repetitions"
for w in 1 2; do
  tr=() pt=()
  for r in $(seq "$reps"); do
    read -r tacc tsec < <(run_treering "$w" epochs="$epochs")
    read -r pacc psec < <(run_torch "$w")
    tr+=("$tsec") pt+=("$psec")
    echo "rep $r workers=$w: treering ${tsec}s/epoch (acc $tacc)  torch ${psec}s/epoch (acc $pacc)"
  done
  /usr/bin/python3 - "$w" "${tr[*]}" "${pt[*]}" <<'PY'
import statistics, sys
w, tr, pt = sys.argv[1], [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()]
a, b = statistics.median(tr), statistics.median(pt)
print("workers=%s median epoch: treering %.3f s, torch %.3f s, treering/torch %.2f" % (w, a, b, a / b))
PY
done
echo "== load: $(uptime)"

# CPU seconds (user + sys) of one command.
cpu_of() {
  /usr/bin/time -f "%U %S" -o "$data/cpu.txt" "$@" > /dev/null 2>&1
  awk '{print $1 + $2}' "$data/cpu.txt"
}
echo "== 3. CPU seconds per epoch, 1 worker, $reps interleaved repetitions"
tcpu=() pcpu=()
for r in $(seq "$reps"); do
  a=$(cpu_of "$bin/treering" "$conf" epochs=$((epochs + 2)))
  b=$(cpu_of "$bin/treering" "$conf" epochs=2)
  c=$(cpu_of /usr/bin/python3 bench/mlp/torch_mlp.py --epochs $((epochs + 2)))
  d=$(cpu_of /usr/bin/python3 bench/mlp/torch_mlp.py --epochs 2)
  tcpu+=("$(/usr/bin/python3 -c "print(round(($a - $b) / $epochs, 3))")")
  pcpu+=("$(/usr/bin/python3 -c "print(round(($c - $d) / $epochs, 3))")")
  echo "rep $r: treering ${tcpu[-1]} cpu-s/epoch, torch ${pcpu[-1]} cpu-s/epoch"
done
/usr/bin/python3 - "${tcpu[*]}" "${pcpu[*]}" <<'PY'
import statistics, sys
tr, pt = [float(x) for x in sys.argv[1].split()], [float(x) for x in sys.argv[2].split()]
a, b = statistics.median(tr), statistics.median(pt)
print("median CPU per epoch: treering %.3f s, torch %.3f s, treering/torch %.2f" % (a, b, a / b))
PY
echo "== load: $(uptime)"
