#!/usr/bin/env bash
# The cost model of docs/distributed.md checked on a simulated cluster (issue 18 item 4):
# HIGGS-like data (1M x 28, depth 8, ../shared/bench/xgb/higgs1m.conf, ROUNDS rounds) on 4 hosts
# x 1 worker (and 2 hosts) over tc-shaped links of each RATE (tests/cluster/cluster.sh: network
# namespaces, real sshd, `treering-submit --cluster ssh`), next to 1 host (the baseline), and
# the measured seconds per round next to the prediction
#     T_round = T_comp + T_sync(link),
#     T_sync  = calls x 2log2(R) steps x latency + 2(R-1)/R x histogram bytes / bandwidth,
# which the timing report prints from rabit_link_bandwidth_mbps / rabit_link_latency_us.
#
# T_comp. The report uses the job's own T_comp (the slowest worker's): the simulated hosts share
# this machine's 2 cores, so a 1/4-row process measured alone computes faster than a host of
# the 4-host job can (4 workers on 2 cores: each gets about half a core). The script measures
# T_comp(1 host, 1/4 of the rows) both ways and prints the prediction with each:
#     quarter        one process on a quarter of the rows (and of the test rows), alone
#     quarter x4     four such processes at once (what the 4 hosts' workers share), the slowest
# The 2-host job has a core per worker, so there the job's own T_comp is a host's T_comp.
#
# usage: bench/cluster/cost_model.sh [key=value ...]   (root; pairs go to every treering run)
#   ROUNDS=20 REPEATS=1 RATES="1gbit 100mbit" HOSTS="4 2" LATENCY_US=50 NAME=cm BUILD=build
# Exits 77 when the cluster cannot be built (not root, no sshd, no namespaces).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cluster=$root/tests/cluster/cluster.sh
out=$root/bench/out
conf=$root/../shared/bench/xgb/higgs1m.conf
py=/usr/bin/python3
rounds=${ROUNDS:-20}
repeats=${REPEATS:-1}
read -r -a rates <<<"${RATES:-1gbit 100mbit}"
read -r -a host_counts <<<"${HOSTS:-4 2}"
latency_us=${LATENCY_US:-50}
name=${NAME:-cm}
build=$(cd "${BUILD:-$root/build}" && pwd)
treering=$build/bin/treering
submit=$build/bin/treering-submit
allreduce_bench=$build/bin/rabit_allreduce_bench
extra=("$@")
for f in "$treering" "$submit" "$allreduce_bench"; do
  [ -x "$f" ] || { echo "missing $f (targets treering treering-submit rabit_allreduce_bench)" >&2
    exit 2; }
done
[ -f "$conf" ] || { echo "no $conf: shared/ must be beside the repository" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "cost_model.sh: SKIP: needs root (tests/cluster/cluster.sh)"; exit 77; }

if [ ! -s "$out/higgs1m.train.libsvm" ]; then
  mkdir -p "$out"
  "$py" "$root/../shared/bench/data/make_synthetic.py" "$out" --rows 1000000 >&2
fi
scratch=$(mktemp -d)
trap '"$cluster" down --name "$name" >/dev/null 2>&1; rm -rf "$scratch"' EXIT
# A quarter of the rows, as rank 0 of 4 reads them (byte-range shards are contiguous).
for part in train test; do
  lines=$(wc -l <"$out/higgs1m.$part.libsvm")
  head -n $((lines / 4)) "$out/higgs1m.$part.libsvm" >"$scratch/quarter.$part.libsvm"
done

# Every treering run's arguments, into ${args[@]}: the config, ROUNDS rounds, one thread, the
# data, the model file and the caller's pairs.
job_args() {  # job_args DATA TEST MODEL
  args=("$conf" num_round="$rounds" nthread=1 data="$1?format=libsvm"
    "eval[test]=$2?format=libsvm" model_out="$3" "${extra[@]}")
}

# Fields of the timing report in a log, as key=value words (docs/distributed.md shows the lines).
report() {
  sed -n 's/^\(\[rank 0\] \)\{0,1\}treering: timing: //p' "$1" | awk '
    / rounds on / {
      match($0, / in [0-9.]+ s;/); total = substr($0, RSTART + 4, RLENGTH - 7)
      split($0, a, "T_comp "); split(a[2], b, " "); comp = b[1]
      split($0, a, "T_sync "); split(a[2], b, " "); sync = b[1]
      split($0, a, "T_sync/T_comp "); split(a[2], b, ", "); split(b[2], c, " "); bytes = c[1]
      print "total=" total, "comp=" comp, "sync=" sync, "bytes=" bytes }
    /predicted T_sync per round/ {
      n = split($0, a, " = "); split(a[n], b, " "); print "sync_pred=" b[1] }
    /^predicted round/ {
      split($0, a, " = "); split(a[3], b, " "); print "comp_max=" b[1]
      split(a[4], b, " "); print "round_pred=" b[1]
      split($0, a, "; measured "); split(a[2], b, " "); print "round_meas=" b[1]
      split($0, a, "measured/predicted "); split(a[2], b, ";"); print "ratio=" b[1]
      split($0, a, "bottleneck: "); split(a[2], b, " "); print "bottleneck=" b[1] }
    /^speed-up over 1 host/ {
      split($0, a, "predicted "); split(a[2], b, ","); print "speedup_pred=" b[1]
      split($0, a, "measured "); print "speedup_meas=" a[2] }' | tr '\n' ' '
}
field() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p"; }
median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{v[NR]=$1} END {print (NR ? v[int((NR+1)/2)] : "-")}'; }

run_local() {  # run_local TAG DATA TEST: one process on this host; prints its report
  local log=$scratch/$1.log args
  job_args "$2" "$3" "$scratch/$1.json"
  (cd "$scratch" && "$treering" "${args[@]}" >"$log" 2>&1) || { echo "$1 failed:" >&2; tail -5 "$log" >&2; exit 1; }
  report "$log"
}

# Four quarter-row processes at once: the slowest one's T_comp per round.
run_quarter_x4() {
  local i pids=() worst=0 comp args
  for i in 1 2 3 4; do
    job_args "$scratch/quarter.train.libsvm" "$scratch/quarter.test.libsvm" "$scratch/q4.$i.json"
    (cd "$scratch" && exec "$treering" "${args[@]}" >"$scratch/q4.$i.log" 2>&1) &
    pids+=($!)
  done
  for i in "${pids[@]}"; do wait "$i" || { echo "quarter x4 failed" >&2; exit 1; }; done
  for i in 1 2 3 4; do
    comp=$(field "$(report "$scratch/q4.$i.log")" comp)
    worst=$(awk -v a="$worst" -v b="$comp" 'BEGIN {print (b > a ? b : a)}')
  done
  echo "comp=$worst"
}

mbps_of() {  # 1gbit -> 1000, 100mbit -> 100
  awk -v r="$1" 'BEGIN {n = r + 0; if (r ~ /gbit$/) n *= 1000; else if (r ~ /kbit$/) n /= 1000
    print n}'
}

run_cluster_job() {  # run_cluster_job TAG HOSTS MBPS SINGLE: prints its report
  local tag=$1 n=$2 log=$scratch/$1.log args
  head -n "$n" "$CLUSTER_DIR/hosts" >"$scratch/hosts.$n"
  job_args "$out/higgs1m.train.libsvm" "$out/higgs1m.test.libsvm" "$scratch/$tag.json"
  (cd "$scratch" && "$submit" --cluster ssh --num-workers "$n" --host-file "$scratch/hosts.$n" \
    --ssh-command "$CLUSTER_SSH" -- "$treering" "${args[@]}" rabit_link_bandwidth_mbps="$3" \
    rabit_link_latency_us="$latency_us" single_worker_seconds="$4" >"$log" 2>&1) ||
    { echo "$tag failed:" >&2; tail -5 "$log" >&2; exit 1; }
  report "$log"
}

# The histogram allreduce of one depth-8 tree alone, without the learner's compute between the
# calls (so no waiting for a slower peer): rabit_allreduce_bench at the level sizes of
# hist_sync_bench.cc (112 KiB a node: the root, then 1, 2, 4 ... 64 nodes built per level) under
# the job's link keys. Prints "measured_s model_s" for the tree: the sum of the median call
# times, and the timing report's formula for the same 8 calls.
level_nodes=(1 1 2 4 8 16 32 64)
run_levels() {  # run_levels HOSTS MBPS
  local n=$1 sizes=() k log=$scratch/levels.$1.log
  for k in "${level_nodes[@]}"; do sizes+=($((k * 28 * 256 * 16))); done
  head -n "$n" "$CLUSTER_DIR/hosts" >"$scratch/hosts.$n"
  (cd "$scratch" && "$submit" --cluster ssh --num-workers "$n" --host-file "$scratch/hosts.$n" \
    --ssh-command "$CLUSTER_SSH" -- "$allreduce_bench" "${sizes[@]}" \
    rabit_link_bandwidth_mbps="$2" rabit_link_latency_us="$latency_us" >"$log" 2>&1) ||
    { echo "levels on $n hosts failed:" >&2; tail -5 "$log" >&2; exit 1; }
  sed -n 's/^\[rank 0\] \([0-9]\)/\1/p' "$log" | awk -v counts="${level_nodes[*]}" -v n="$n" \
    -v mbps="$2" -v lat="$latency_us" 'BEGIN {
      split(counts, c, " "); for (i in c) want[c[i] * 28 * 256 * 16] += 1
      steps = 0; for (p = 1; p * 2 <= n; p *= 2) steps += 2; if (p != n) steps += 2 }
    { t[$1] = $3 * 1e-6 }
    END { for (b in want) { m += want[b] * t[b]
            model += want[b] * (steps * lat * 1e-6 + 2 * (n - 1) / n * b / (mbps * 1e6 / 8)) }
          printf "%.4f %.4f\n", m, model }'
}

# Median TCP round trip between the first and the last host (bench/cluster/tcp_rtt.py).
measure_rtt_us() {
  local far=${CLUSTER_HOSTS##* } server
  ip netns exec "$name-h${host_counts[0]}" "$py" "$root/bench/cluster/tcp_rtt.py" serve "$far" \
    47001 &
  server=$!
  ip netns exec "$name-h1" "$py" "$root/bench/cluster/tcp_rtt.py" ping "$far" 47001 200 ||
    echo "?"
  wait "$server" || true
}

declare -A rows
add() { rows[$1]+="$2|"; }  # add KEY "report words": one repeat of a configuration

echo "load before: $(uptime)"
echo "cpus: $(nproc); every simulated host shares them (and the machine's other jobs)"
run_local warm "$scratch/quarter.train.libsvm" "$scratch/quarter.test.libsvm" >/dev/null
singles=()
for ((r = 0; r < repeats; r++)); do
  one=$(run_local one "$out/higgs1m.train.libsvm" "$out/higgs1m.test.libsvm")
  add one "$one"
  singles+=("$(field "$one" total)")
  add quarter "$(run_local quarter "$scratch/quarter.train.libsvm" "$scratch/quarter.test.libsvm")"
  add quarter4 "$(run_quarter_x4)"
done
single=$(echo "${singles[*]}" | median)

for rate in "${rates[@]}"; do
  mbps=$(mbps_of "$rate")
  "$cluster" up "${host_counts[0]}" --rate "$rate" --name "$name" >"$scratch/env" ||
    { rc=$?; echo "cost_model.sh: cluster.sh up failed ($rc)"; exit "$rc"; }
  set -a
  # shellcheck disable=SC1091
  . "$scratch/env"
  set +a
  rtt_us=$(measure_rtt_us)
  echo "$rate: TCP ping-pong h1 -> h${host_counts[0]}: median round trip $rtt_us us" \
    "(the link model's latency: $latency_us us a message)"
  for ((r = 0; r < repeats; r++)); do
    for n in "${host_counts[@]}"; do
      add "$n@$rate" "$(run_cluster_job "h$n" "$n" "$mbps" "$single")"
      read -r lm lp < <(run_levels "$n" "$mbps")
      add "levels$n@$rate" "measured=$lm model=$lp"
    done
  done
  "$cluster" down --name "$name"
done
echo "load after:  $(uptime)"

med() {  # med KEY FIELD: median over the repeats
  local words values=()
  IFS='|' read -r -a words <<<"${rows[$1]}"
  for w in "${words[@]}"; do values+=("$(field "$w" "$2")"); done
  echo "${values[*]}" | median
}
per_round() { awk -v t="$1" -v n="$rounds" 'BEGIN {printf "%.4f", t / n}'; }

q_alone=$(med quarter comp)
q_shared=$(med quarter4 comp)
echo
echo "$rounds rounds; seconds per round, medians of $repeats; T_comp(1 host, 1/4 rows): alone" \
  "$q_alone s, with 4 running at once (slowest) $q_shared s; 1 host (all rows): T_comp" \
  "$(med one comp) s, round $(per_round "$single") s"
printf '%-12s %7s %7s %8s %8s %8s %8s %6s %8s %8s %6s %6s %6s %6s\n' config T_comp Tc_max \
  T_sync Tsync_pr round pred meas/p pred_q meas/pq pred_q4 mea/q4 bottlnk speedup
for rate in "${rates[@]}"; do
  for n in "${host_counts[@]}"; do
    k="$n@$rate"
    tsp=$(med "$k" sync_pred)
    meas=$(med "$k" round_meas)
    awk -v c="$(med "$k" comp)" -v cm="$(med "$k" comp_max)" -v s="$(med "$k" sync)" \
      -v sp="$tsp" -v m="$meas" -v p="$(med "$k" round_pred)" -v qa="$q_alone" -v qs="$q_shared" \
      -v b="$(med "$k" bottleneck)" -v su="$(med "$k" speedup_pred)/$(med "$k" speedup_meas)" \
      -v name="$n hosts $rate" -v quarter=$((n == 4)) 'BEGIN {
        pq = qa + sp; pq4 = qs + sp
        if (!quarter) { pq = 0; pq4 = 0 }
        printf "%-12s %7.4f %7.4f %8.4f %8.4f %8.4f %8.4f %6.2f %8s %8s %6s %6s %6s %6s\n",
          name, c, cm, s, sp, m, p, m / p, quarter ? sprintf("%.4f", pq) : "-",
          quarter ? sprintf("%.2f", m / pq) : "-", quarter ? sprintf("%.4f", pq4) : "-",
          quarter ? sprintf("%.2f", m / pq4) : "-", b, su }'
  done
done
echo
echo "histogram allreduce of one tree alone (rabit_allreduce_bench, 8 level sizes, 14.7 MB):"
printf '%-16s %10s %10s %8s %10s\n' config measured_s model_s meas/mod "in training"
for rate in "${rates[@]}"; do
  for n in "${host_counts[@]}"; do
    awk -v m="$(med "levels$n@$rate" measured)" -v p="$(med "levels$n@$rate" model)" \
      -v s="$(med "$n@$rate" sync)" -v name="$n hosts $rate" 'BEGIN {
      printf "%-16s %10.4f %10.4f %8.2f %10.4f\n", name, m, p, m / p, s }'
  done
done
cat <<'EOF'
(in training: the job's measured T_sync per round, for all its collectives: 15.3 MB)
(T_comp: mean over workers, Tc_max: the slowest worker's, T_sync: measured inside collectives;
 Tsync_pr: the link model's T_sync; round: measured (T_comp + T_sync); pred: Tc_max + Tsync_pr
 as the timing report prints it, meas/p its ratio; pred_q / pred_q4: T_comp(1 host, 1/4 rows)
 alone / with 4 at once + Tsync_pr (4 hosts only); speedup: over 1 host, predicted/measured)
EOF
