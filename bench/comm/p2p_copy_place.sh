#!/usr/bin/env bash
# Where the kernel's payload copies of a ping-pong ran, for the message path's placement rule
# (transport/message_header.h): samples the ranks with perf (cpu-clock, registers at each
# sample) and, for every sample inside _copy_to_iter (receive copy) or _copy_from_iter (send
# copy), takes (DI - SI) mod 4096 = (destination - source) mod 4096 of the `rep movsb` running
# there. On the project VM's EPYC that copy runs ~10x slower when the value is 1-31 (the "slow
# band"). Unlike a time, the share of samples in the band does not depend on the machine's load.
#   usage: bench/comm/p2p_copy_place.sh [BIN_DIR=build/bin] [BYTES=4194304] [ENV...]
#   e.g.   bench/comm/p2p_copy_place.sh build/bin 4194304 P2P_PAGE_OFFSET=16
#          MPI=1 bench/comm/p2p_copy_place.sh build/bin 4194304   (Open MPI's ranks instead)
# Prints per rank and copy: samples, samples in the slow band, and the four commonest values.
# Needs perf with kernel symbols (root, or kernel.perf_event_paranoid <= 1 and kptr_restrict 0).
set -euo pipefail
bin=${1:-build/bin}
bytes=${2:-4194304}
shift $(( $# < 2 ? $# : 2 ))
command -v perf > /dev/null || { echo "perf not found: skipped"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
prefix=${PREFIX-chrt -f 10}
record=(perf record -q -e cpu-clock -c 50000 --intr-regs=DI,SI -o "$out/perf.data" --)
if [ -n "${MPI:-}" ]; then
  comm=mpi_p2p_bench
  # shellcheck disable=SC2086
  env "$@" "${record[@]}" $prefix mpirun --oversubscribe -np 2 --mca btl tcp,self \
    --mca btl_tcp_if_include lo "$bin/mpi_p2p_bench" pingpong "$bytes" > "$out/log" 2>&1
  grep -E '^[0-9]' "$out/log" | sed 's/^/# open mpi: bytes iters median_us GBps: /'
else
  comm=rabit_p2p_bench
  # shellcheck disable=SC2086
  env "$@" "${record[@]}" $prefix "$bin/treering-submit" --cluster local --num-workers 2 -- \
    "$bin/rabit_p2p_bench" pingpong "$bytes" > "$out/log" 2>&1
  sed -n 's/^\[rank 0\] \([0-9]\)/# treering: bytes iters median_us GBps: \1/p' "$out/log"
fi
echo "# load $(cut -d' ' -f1-3 /proc/loadavg); env: ${*:-(none)}"
perf script -i "$out/perf.data" -F comm,pid,ip,sym,iregs 2> /dev/null | python3 -c '
import collections, re, sys
comm = sys.argv[1]
count = collections.Counter()
for line in sys.stdin:
    f = line.split()
    if len(f) < 5 or f[0] != comm or not f[3].startswith(("_copy_to_iter", "_copy_from_iter")):
        continue
    regs = dict(re.findall(r"(SI|DI):0x([0-9a-f]+)", line))
    if len(regs) == 2:
        count[(f[1], f[3], (int(regs["DI"], 16) - int(regs["SI"], 16)) % 4096)] += 1
keys = sorted({(p, s) for p, s, _ in count})
for pid, sym in keys:
    mine = {d: n for (p, s, d), n in count.items() if (p, s) == (pid, sym)}
    total = sum(mine.values())
    slow = sum(n for d, n in mine.items() if 1 <= d <= 31)
    top = sorted(mine.items(), key=lambda x: -x[1])[:4]
    what = "receive" if sym == "_copy_to_iter" else "send"
    print(f"pid {pid} {what:7s} copy: {total:5d} samples, {slow:5d} in the slow band "
          f"({100.0 * slow / total:4.1f} %); commonest (dst-src) mod 4096: {top}")
' "$comm"
