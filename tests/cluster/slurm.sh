#!/usr/bin/env bash
# A real Slurm (Debian's slurm-wlm 22.05 + munge) on the simulated hosts of cluster.sh: one
# slurmd per host, in the host's network namespace, with its own node name (n1..nN), spool and
# log; slurmctld and a private munged (a key made for this run) on the launcher. Every file is
# in a temporary directory of this run; slurmctld listens on a free port, so runs at once do
# not meet. Details and pitfalls: docs/launcher.md, Slurm.
#
#   slurm.sh run N -- COMMAND...   cluster.sh up N, Slurm up, COMMAND, everything down
#
# COMMAND runs with the cluster's variables (cluster.sh) plus SLURM_CONF (for srun, sbatch,
# scontrol), SLURM_TEST_DIR (the run's directory: logs in $SLURM_TEST_DIR/log) and
# SLURM_TEST_NODES ("n1 n2 ..."). Teardown (also on failure, Ctrl-C or a test's timeout
# SIGTERM): SIGTERM to every daemon, SIGKILL after 3 s, then cluster.sh removes the hosts with
# whatever still runs in them (jobs' steps), then the directory. Exit 77 naming the reason when
# not root or a package is missing.
set -uo pipefail

SKIP=77
HERE=$(cd "$(dirname "$0")" && pwd)
skip() { echo "slurm.sh: SKIP: $*" >&2; exit $SKIP; }
die() { echo "slurm.sh: $*" >&2; exit 1; }

check_tools() {
  [ "$(id -u)" -eq 0 ] || skip "needs root (network namespaces, slurmd)"
  local t
  for t in slurmctld slurmd srun sbatch scontrol sinfo; do
    command -v "$t" >/dev/null || [ -x "/usr/sbin/$t" ] ||
      skip "no $t (Debian packages slurm-wlm: scripts/install-deps.sh)"
  done
  for t in munged mungekey; do
    command -v "$t" >/dev/null || [ -x "/usr/sbin/$t" ] ||
      skip "no $t (Debian package munge: scripts/install-deps.sh)"
  done
  command -v nsenter >/dev/null || skip "no nsenter (util-linux)"
}

free_port() {
  /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("",0)); print(s.getsockname()[1])'
}

write_conf() {  # write_conf DIR PORT
  local dir=$1 port=$2 i=0 host nodes=""
  {
    cat <<EOF
ClusterName=treering
# "localhost" passes slurmctld's own-host check on any machine; () is the address all connect to
SlurmctldHost=localhost($CLUSTER_LAUNCHER_IP)
SlurmctldPort=$port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
# Test timings: finished jobs leave soon (sbatch --wait then polls every 2 s, not 8-32 s)
SlurmdTimeout=5
MinJobAge=5
KillWait=2
EOF
    for host in $CLUSTER_HOSTS; do
      i=$((i + 1))
      echo "NodeName=n$i NodeAddr=$host CPUs=2 State=UNKNOWN"
      nodes="$nodes n$i"
    done
    echo "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP"
  } >"$dir/slurm.conf"
  echo "${nodes# }" >"$dir/nodes"
}

pids=()
stop_daemons() {
  local pid left
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null; done
  for _ in $(seq 30); do
    left=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && left=1; done
    [ $left -eq 0 ] && break
    sleep 0.1
  done
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
}

cleanup() {
  stop_daemons
  # Steps and jobs' processes live in the hosts' namespaces: cluster.sh's down ends them.
  [ -n "${SLURM_TEST_DIR:-}" ] && [ -z "${SLURM_TEST_KEEP:-}" ] && rm -rf "$SLURM_TEST_DIR"
}

inner() {  # inside cluster.sh run: Slurm up, COMMAND, Slurm down
  local dir port i=0 ns started
  started=$EPOCHREALTIME
  dir=$(mktemp -d /tmp/treering-slurm.XXXXXX) || die "mktemp failed"
  chmod 755 "$dir"
  export SLURM_TEST_DIR=$dir
  trap cleanup EXIT
  trap 'exit 143' TERM
  trap 'exit 130' INT
  mkdir -p "$dir/state" "$dir/log" "$dir/munge"
  chmod 755 "$dir/munge"
  mungekey --create --keyfile="$dir/munge/munge.key" >/dev/null 2>&1 || die "mungekey failed"
  # -F: foreground, so this script owns the pid and stops it
  munged -F --socket="$dir/munge/munge.sock" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
    --seed-file="$dir/munge/munged.seed" >"$dir/log/munged.out" 2>&1 &
  pids+=($!)
  port=$(free_port)
  write_conf "$dir" "$port"
  export SLURM_CONF=$dir/slurm.conf
  SLURM_TEST_NODES=$(cat "$dir/nodes")
  export SLURM_TEST_NODES
  for _ in $(seq 50); do [ -S "$dir/munge/munge.sock" ] && break; sleep 0.05; done
  [ -S "$dir/munge/munge.sock" ] || die "munged did not start ($dir/munge/munged.log)"
  slurmctld -D -f "$SLURM_CONF" >"$dir/log/slurmctld.out" 2>&1 &
  pids+=($!)
  for ns in $CLUSTER_NETNS; do
    i=$((i + 1))
    mkdir -p "$dir/spool/n$i"
    # nsenter --net, not `ip netns exec`: that one remounts /sys and slurmd 22.05 then finds no
    # cgroup file system and refuses to start.
    nsenter --net="/run/netns/$ns" slurmd -D -f "$SLURM_CONF" -N "n$i" \
      >"$dir/log/slurmd-n$i.out" 2>&1 &
    pids+=($!)
  done
  local deadline=$((SECONDS + 30)) state
  while :; do
    state=$(timeout 5 sinfo -h -N -o %T 2>/dev/null | sort -u | tr '\n' ' ')
    [ "$state" = "idle " ] && break
    if [ $SECONDS -ge $deadline ]; then
      echo "slurm.sh: nodes not idle after 30 s (state: $state); logs in $dir/log" >&2
      tail -n 5 "$dir"/log/*.log >&2 2>/dev/null
      exit 1
    fi
    sleep 0.05
  done
  echo "slurm.sh: $i nodes idle after $(awk "BEGIN{printf \"%.2f\", $EPOCHREALTIME - $started}") s" >&2
  "$@"
}

main() {
  case "${1:-}" in
    run)
      [ $# -ge 3 ] && [ "$3" = "--" ] || die "usage: slurm.sh run N -- COMMAND..."
      local n=$2
      shift 3
      check_tools
      exec bash "$HERE/cluster.sh" run "$n" --name auto -- bash "$HERE/slurm.sh" inner -- "$@"
      ;;
    inner)
      shift 2
      inner "$@"
      ;;
    *) die "usage: slurm.sh run N -- COMMAND..." ;;
  esac
}

main "$@"
