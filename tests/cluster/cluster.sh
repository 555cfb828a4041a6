#!/usr/bin/env bash
# A simulated cluster of N hosts on this machine: each host is a Linux network namespace with
# one veth link to a bridge in the root namespace, shaped with tc tbf (rate only: this kernel has
# no netem), and runs its own OpenSSH server on its own address with a throwaway key made here.
# The launching host is the root namespace, on the bridge's address: it keeps the build tree,
# ctest and the user's shell, and it has other interfaces (loopback, eth0), so picking the
# address that reaches the hosts is a real choice there, as on a cluster's head node.
#
#   cluster.sh up N [--rate 1gbit] [--ipv6] [--name NAME]   build it; prints the addresses
#   cluster.sh down [--name NAME]                           remove it (idempotent)
# NAME (default trc) is 1-8 of [a-z0-9]; `--name auto` is unique to this process (tests).
#   cluster.sh run N [--rate R] [--ipv6] [--name NAME] -- COMMAND...
#                                       up, run COMMAND with the cluster's variables, down
#
# `up` writes $CLUSTER_DIR (/tmp/treering-cluster-NAME): `hosts` (one `ADDRESS slots=1` line a
# host, an Open MPI / treering-submit host file), `ssh_config` (use `ssh -F $CLUSTER_DIR/ssh_config
# ADDRESS`), `env` (shell variables: CLUSTER_DIR, CLUSTER_NAME, CLUSTER_HOSTS, CLUSTER_NETNS,
# CLUSTER_LAUNCHER_IP, CLUSTER_SUBNET, CLUSTER_RATE, CLUSTER_SSH, CLUSTER_LOCAL_DIR) and prints
# that file. The hosts share this machine's file system, except CLUSTER_LOCAL_DIR: a tmpfs of
# each host's own (its mount namespace), empty on the launcher, as a real host's local disk.
# Every address is a test address (10.213.X.0/24 or fd74:7265:0:X::/64) that exists only inside
# these namespaces and the bridge. Needs root, `ip netns` and /usr/sbin/sshd: without them it
# exits 77 naming what is missing, as the tests that use it do. Teardown runs on failure of `up`
# and at the end of `run` (also on Ctrl-C); what a killed `run` left, the next `up` removes.
set -uo pipefail

SKIP=77
name=trc
rate=1gbit
ipv6=0

die() { echo "cluster.sh: $*" >&2; exit 1; }
skip() { echo "cluster.sh: SKIP: $*" >&2; exit $SKIP; }

parse_opts() {
  while [ $# -gt 0 ]; do
    case "$1" in
      --rate) rate=$2; shift 2 ;;
      --ipv6) ipv6=1; shift ;;
      --name) name=$2; shift 2 ;;
      --) shift; command_args=("$@"); return ;;
      *) die "unknown option '$1'" ;;
    esac
  done
}

state_dir() { echo "/tmp/treering-cluster-$name"; }

# Clusters of `run`s that were killed (SIGKILL, a ctest timeout) before their teardown: their
# owner pid is gone. Called under the lock.
reap_stale() {
  local owner_file owner
  for owner_file in /tmp/treering-cluster-*/owner; do
    [ -f "$owner_file" ] || continue
    owner=$(cat "$owner_file")
    [ -n "$owner" ] && ! kill -0 "$owner" 2>/dev/null || continue
    (name=$(basename "$(dirname "$owner_file")"); name=${name#treering-cluster-}; down)
  done
}

need_tools() {
  [ "$(id -u)" -eq 0 ] || skip "needs root (network namespaces, veth, tc)"
  [ -x /usr/sbin/sshd ] || skip "no /usr/sbin/sshd (Debian package openssh-server)"
  command -v ssh >/dev/null && command -v ssh-keygen >/dev/null ||
    skip "no ssh / ssh-keygen (Debian package openssh-client)"
  command -v ip >/dev/null && command -v tc >/dev/null || skip "no ip / tc (iproute2)"
  [ "$name" = auto ] && name="c$$"  # unique while this shell lives: tests running at once
  [[ "$name" =~ ^[a-z][a-z0-9]{0,7}$ ]] || die "--name must be 1-8 of [a-z0-9] (interface names)"
}

# The first X whose 10.213.X.0/24 (and fd74:7265:0:X::/64) no interface uses yet; called under
# the lock, so two clusters made at once get different subnets.
free_subnet_index() {
  local used
  used=$(ip -o addr show 2>/dev/null)
  for x in $(seq 1 254); do
    if ! grep -q -e "10\.213\.$x\." -e "fd74:7265:0:$x::" <<<"$used"; then
      echo "$x"
      return
    fi
  done
  die "no free 10.213.X.0/24 subnet"
}

addr_of() {  # addr_of X I: host I's address (I = 0 is the launcher, on the bridge)
  if [ "$ipv6" -eq 1 ]; then
    echo "fd74:7265:0:$1::$(($2 + 1))"
  else
    echo "10.213.$1.$(($2 + 1))"
  fi
}

down() {
  local dir ns pid veth
  dir=$(state_dir)
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^$name-h[0-9]+$"); do
    # Everything still running in a host (its sshd, a worker a failed test left): TERM, KILL.
    for sig in TERM KILL; do
      for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -s $sig "$pid" 2>/dev/null; done
      [ -z "$(ip netns pids "$ns" 2>/dev/null)" ] && break
      sleep 0.3
    done
    ip netns del "$ns" 2>/dev/null
  done
  # A host's veth dies with its namespace only once nothing holds the namespace: a worker's
  # zombie not yet reaped keeps it, and the next `up` of this name would meet the old veth.
  for veth in $(ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | cut -d@ -f1 |
    grep -E "^$name-v[0-9]+$"); do
    ip link del "$veth" 2>/dev/null
  done
  ip link del "$name-br" 2>/dev/null
  rm -rf "$dir"
  return 0
}

make_keys() {
  local dir=$1
  ssh-keygen -q -t ed25519 -N '' -C "treering-cluster-$name" -f "$dir/id_ed25519" || return 1
  ssh-keygen -q -t ed25519 -N '' -C "treering-cluster-$name-host" -f "$dir/host_ed25519" ||
    return 1
  cp "$dir/id_ed25519.pub" "$dir/authorized_keys"
  cat >"$dir/ssh_config" <<EOF
# Client side of the simulated cluster: its own key, no password prompt, hosts' keys are
# throwaway (made at set-up), so they are not checked or remembered.
Host *
  User root
  IdentityFile $dir/id_ed25519
  IdentitiesOnly yes
  BatchMode yes
  PasswordAuthentication no
  StrictHostKeyChecking no
  UserKnownHostsFile /dev/null
  GlobalKnownHostsFile /dev/null
  ConnectTimeout 5
  ServerAliveInterval 5
  ServerAliveCountMax 2
  LogLevel ERROR
EOF
}

start_sshd() {  # start_sshd DIR I ADDRESS
  local dir=$1 i=$2 addr=$3
  local listen=$addr
  [ "$ipv6" -eq 1 ] && listen="[$addr]"
  cat >"$dir/sshd_h$i.conf" <<EOF
ListenAddress $listen
HostKey $dir/host_ed25519
PidFile $dir/sshd_h$i.pid
AuthorizedKeysFile $dir/authorized_keys
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
UseDNS no
ClientAliveInterval 5
ClientAliveCountMax 2
MaxStartups 64:30:128
MaxSessions 64
EOF
  mkdir -p /run/sshd  # sshd's privilege separation directory
  # `ip netns exec` runs in a mount namespace of its own, so this tmpfs is seen by this host's
  # sshd and its sessions only: $dir/local is each host's own disk, empty on the launcher.
  ip netns exec "$name-h$i" sh -c 'mount -t tmpfs -o size=512m,mode=700 tmpfs "$0" &&
    exec /usr/sbin/sshd -f "$1" -E "$2"' "$dir/local" "$dir/sshd_h$i.conf" "$dir/sshd_h$i.log" ||
    return 1
}

add_host() {  # add_host DIR X I
  local dir=$1 x=$2 i=$3 ns="$name-h$i" veth="$name-v$i" addr plen
  addr=$(addr_of "$x" "$i")
  plen=24
  [ "$ipv6" -eq 1 ] && plen=64
  ip netns add "$ns" || return 1
  ip link add "$veth" type veth peer name eth0 netns "$ns" || return 1
  ip link set "$veth" master "$name-br" up || return 1
  ip -n "$ns" link set lo up || return 1
  if [ "$ipv6" -eq 1 ]; then
    ip netns exec "$ns" sysctl -q -w net.ipv6.conf.all.disable_ipv6=0 >/dev/null 2>&1
    ip -n "$ns" -6 addr add "$addr/$plen" dev eth0 nodad || return 1
  else
    ip -n "$ns" addr add "$addr/$plen" dev eth0 || return 1
  fi
  ip -n "$ns" link set eth0 up || return 1
  # Egress of both ends, so each direction of the link runs at the rate.
  tc qdisc replace dev "$veth" root tbf rate "$rate" burst 256kb latency 100ms || return 1
  ip netns exec "$ns" tc qdisc replace dev eth0 root tbf rate "$rate" burst 256kb latency 100ms ||
    return 1
  echo "$ns" >>"$dir/netns"
  echo "$addr slots=1" >>"$dir/hosts"
  start_sshd "$dir" "$i" "$addr"
}

wait_for_ssh() {  # every host answers a command over ssh, or fail naming it
  local dir=$1 addr deadline
  deadline=$((SECONDS + 20))
  while read -r addr _; do
    until ssh -F "$dir/ssh_config" "$addr" true 2>/dev/null; do
      if [ $SECONDS -ge $deadline ]; then
        echo "cluster.sh: host $addr: ssh does not answer" >&2
        return 1
      fi
      sleep 0.2
    done
  done <"$dir/hosts"
}

up() {
  local n=$1 dir x i
  [[ "$n" =~ ^[1-9][0-9]?$ ]] || die "N must be 1..99 hosts"
  need_tools
  down  # what a killed earlier run of the same name left
  trap 'down' EXIT  # a failed or interrupted set-up leaves nothing behind
  dir=$(state_dir)
  mkdir -p "$dir" && chmod 700 "$dir"
  exec 9>/tmp/treering-cluster.lock
  flock 9
  reap_stale
  ip netns add "$name-probe" 2>/dev/null || skip "cannot create a network namespace"
  ip netns del "$name-probe"
  x=$(free_subnet_index)
  ip link add "$name-br" type bridge || die "cannot create bridge $name-br"
  if [ "$ipv6" -eq 1 ]; then
    ip -6 addr add "$(addr_of "$x" 0)/64" dev "$name-br" nodad
  else
    ip addr add "$(addr_of "$x" 0)/24" dev "$name-br"
  fi
  ip link set "$name-br" up
  flock -u 9
  mkdir -p "$dir/local"
  make_keys "$dir" || die "ssh-keygen failed"
  for i in $(seq 1 "$n"); do
    add_host "$dir" "$x" "$i" || die "cannot set up host $i (see above)"
  done
  wait_for_ssh "$dir" || die "sshd did not come up"
  local subnet="10.213.$x.0/24"
  [ "$ipv6" -eq 1 ] && subnet="fd74:7265:0:$x::/64"
  cat >"$dir/env" <<EOF
CLUSTER_NAME=$name
CLUSTER_DIR=$dir
CLUSTER_HOSTS="$(awk '{print $1}' "$dir/hosts" | tr '\n' ' ' | sed 's/ $//')"
CLUSTER_NETNS="$(tr '\n' ' ' <"$dir/netns" | sed 's/ $//')"
CLUSTER_LAUNCHER_IP=$(addr_of "$x" 0)
CLUSTER_SUBNET=$subnet
CLUSTER_RATE=$rate
CLUSTER_SSH="ssh -F $dir/ssh_config"
CLUSTER_LOCAL_DIR=$dir/local
EOF
  trap - EXIT
  cat "$dir/env"
}

main() {
  [ $# -ge 1 ] || die "usage: cluster.sh up N [--rate R] [--ipv6] [--name NAME] |" \
    "down [--name NAME] | run N [...] -- COMMAND"
  local verb=$1 n=""
  shift
  command_args=()
  case "$verb" in
    up|run) [ $# -ge 1 ] || die "$verb needs N"; n=$1; shift ;;
  esac
  parse_opts "$@"
  case "$verb" in
    up) up "$n" ;;
    down) down ;;
    run)
      [ ${#command_args[@]} -gt 0 ] || die "run needs -- COMMAND"
      trap 'exit 130' INT TERM
      up "$n" >/dev/null
      trap 'down' EXIT
      echo $$ >"$(state_dir)/owner"
      set -a
      # shellcheck disable=SC1090
      . "$(state_dir)/env"
      set +a
      "${command_args[@]}"
      ;;
    *) die "unknown verb '$verb' (up, down, run)" ;;
  esac
}

main "$@"
