#!/usr/bin/env bash
# Allreduce (float sum) of treering's socket engine vs Open MPI's MPI_Allreduce across hosts, at
# 2..8 hosts (one rank a host), timed by the same code as allreduce_bench.sh
# (bench/comm/allreduce_timing.h), ROUNDS rounds interleaved; prints the same table.
#
#   bench/comm/cluster_allreduce.sh HOSTFILE [BUILD_DIR=build] [ROUNDS=3] [rabit k=v ...]
#       real hosts: HOSTFILE has one "address [slots=n]" line a host (the first NP are used, one
#       rank each); the build directory must exist at the same path on every host; SSH="ssh -i
#       KEY" if plain ssh does not reach them; SUBNET (e.g. 10.0.0.0/24) is Open MPI's
#       btl_tcp_if_include and must name the hosts' interface to each other.
#   bench/comm/cluster_allreduce.sh --simulate [BUILD_DIR=build] [ROUNDS=3] [rabit k=v ...]
#       builds a simulated cluster of 8 hosts with tests/cluster/cluster.sh (network namespaces,
#       tc-shaped links, real sshd; RATE=1gbit by default; needs root) and runs on it; exits 77
#       when cluster.sh is missing or cannot build the cluster. NAME=ar (1-8 of [a-z0-9], default
#       trc) names the cluster, so two runs on one machine do not share namespaces.
# NP="2 3 4 5 6 7 8" (default) chooses the world sizes, SIZES the message sizes (default 4 B ..
# 64 MiB). Our side gets LINK="rabit_link_bandwidth_mbps=1000 rabit_link_latency_us=50" (the link
# model for 1 Gbit/s; docs/collectives.md) unless LINK is set (LINK= for the defaults).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/allreduce_report.sh"

if [ "${1:-}" = --simulate ]; then
  shift
  cluster="$root/tests/cluster/cluster.sh"
  [ -x "$cluster" ] || { echo "cluster_allreduce.sh: SKIP: $cluster is missing"; exit 77; }
  exec "$cluster" run 8 --rate "${RATE:-1gbit}" --name "${NAME:-trc}" -- \
    bash -c '. "$CLUSTER_DIR/env"; SSH=${SSH:-$CLUSTER_SSH} SUBNET=${SUBNET:-$CLUSTER_SUBNET} SIMULATED=1 \
      exec "$0" "$CLUSTER_DIR/hosts" "$@"' "$0" "$@"
fi

hostfile=${1:?usage: cluster_allreduce.sh HOSTFILE|--simulate [BUILD_DIR] [ROUNDS] [k=v...]}
build=$(cd "${2:-build}" && pwd)
rounds=${3:-3}
shift $(( $# < 3 ? $# : 3 ))
read -r -a link <<< "${LINK-rabit_link_bandwidth_mbps=1000 rabit_link_latency_us=50}"
extra=("${link[@]}" "$@")
read -r -a sizes <<< "${SIZES:-}"
nps=${NP:-2 3 4 5 6 7 8}
ssh_command=${SSH:-ssh}
ours=$build/bin/rabit_allreduce_bench
theirs=$build/bin/mpi_allreduce_bench
submit=$build/bin/treering-submit
choice=$build/bin/rabit_allreduce_choice
for f in "$ours" "$theirs" "$submit" "$choice"; do
  [ -x "$f" ] || { echo "missing $f (build targets rabit_allreduce_bench mpi_allreduce_bench rabit_allreduce_choice treering-submit)"; exit 2; }
done
[ -r "$hostfile" ] || { echo "cluster_allreduce.sh: cannot read host file $hostfile"; exit 2; }
mapfile -t hosts < <(awk 'NF && $1 !~ /^#/ {print $1}' "$hostfile")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

subset() {  # NP: a host file of the first NP hosts, one slot each
  printf '%s slots=1\n' "${hosts[@]:0:$1}" > "$out/hosts.$1"
  echo "$out/hosts.$1"
}
run_ours() {  # np round
  local ssh_opt=()
  [ "$ssh_command" = ssh ] || ssh_opt=(--ssh-command "$ssh_command")
  "$submit" --cluster ssh --host-file "$(subset "$1")" --num-workers "$1" "${ssh_opt[@]}" \
    -- "$ours" "${sizes[@]}" "${extra[@]}" 2>&1 \
    | sed -n 's/^\[rank 0\] \([0-9]\)/\1/p' > "$out/ours.$1.$2"
}
run_mpi() {  # np round
  mpirun -np "$1" --hostfile "$(subset "$1")" --mca plm_rsh_agent "$ssh_command" \
    --mca btl tcp,self ${SUBNET:+--mca btl_tcp_if_include "$SUBNET"} \
    "$theirs" "${sizes[@]}" 2>&1 | grep -E '^[0-9]' > "$out/mpi.$1.$2"
}

for np in $nps; do
  if [ "$np" -gt "${#hosts[@]}" ]; then
    echo "cluster_allreduce.sh: np=$np but $hostfile has ${#hosts[@]} hosts" >&2
    exit 2
  fi
  for ((r = 1; r <= rounds; r++)); do
    run_ours "$np" "$r"
    run_mpi "$np" "$r"
  done
done

echo "# $(date -u +%FT%TZ) launcher load: $(cut -d' ' -f1-3 /proc/loadavg); rounds=$rounds; hosts: $hostfile"
echo "# rabit args: ${extra[*]:-(defaults)}; Open MPI: btl tcp,self${SUBNET:+, btl_tcp_if_include $SUBNET}"
for np in $nps; do
  # Simulated hosts share this machine's kernel and cores (the ranks learn it at start).
  "$choice" "$np" "${sizes[@]}" machines="$([ -n "${SIMULATED:-}" ] && echo 1 || echo "$np")" \
    "${extra[@]}" > "$out/choice.$np"
  allreduce_report "$out" "$np"
done
echo
echo "# t_ratio = ours/MPI median time (latency goal at 4 B: <= 1.2); bw_ratio = MPI time/ours"
echo "# (bandwidth goal at >= 1 MiB: >= 1.0). GB/s = 1e9 B/s of message bytes (algbw)."
