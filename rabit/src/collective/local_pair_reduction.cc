// Reduce-scatter and allreduce between the two ranks of a world on one machine by
// cross-memory reads: each rank reads its own slice of the partner's buffer straight out of the
// partner's address space (process_vm_readv, Linux's cross-memory attach, which Open MPI's
// shared-memory transport uses for large messages) and reduces it into its own. Over loopback
// TCP the same bytes cost two kernel copies (into the socket, out of it) plus the TCP work; here
// one copy into a small window that is reduced while still in cache. An allreduce also writes
// each reduced window into the partner's buffer (process_vm_writev) while it is in cache, again
// one copy: the partner's half that a rank reads is read by no one else and written by no one
// else, so it may be overwritten window by window as soon as it is read. The link carries only
// the op header, each buffer's address and a closing mark that says the partner's buffer is no
// longer read or written.
//
// The first call probes: each rank reads a random 64-bit value at an address the partner sent
// and writes a word the partner named, and both learn whether both ranks could and read what was
// sent (a partner in another PID namespace, a kernel without the calls, a seccomp filter or
// ptrace rules refusing them all fail the probe).
// Only if both succeeded do they use the reads, this call and every later one, and only from
// the process the probe verified; otherwise both fall back to the socket algorithms for good.
// Either way both ranks decide the same.
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

#include "collective/algorithms.h"
#include "transport/cross_memory.h"
#include "transport/wire_format.h"

namespace rabit::collective {

using transport::Channel;
using transport::Exchange;
using transport::Flow;
using transport::ProcessProbe;
using transport::ReadFromProcess;
using transport::Topology;
using transport::WriteToProcess;

namespace {

// What each rank sends first (transport/wire_format.h): where its buffer is, and the probes
// (used on the first call): a value to read back, and a word the partner may write (the
// allreduce writes).
using transport::LocalPairAnnounce;

// The word partners write on the first call to learn that the kernel lets them write here.
std::uint64_t write_probe_sink = 0;

// Sends `out` to and receives `in` from the partner (the same number of bytes) in one phase.
treering::Status Swap(Exchange& ex, Channel* ch, const void* out, void* in, std::size_t bytes) {
  ex.SetSend(ch, Flow{static_cast<std::uint8_t*>(const_cast<void*>(out)), 0, 0, bytes, bytes, 0});
  ex.SetRecv(ch, Flow{static_cast<std::uint8_t*>(in), 0, 0, bytes, bytes, 0});
  return ex.Run([] {});
}

enum class Copy { kRead, kWrite };

treering::Status CopyFailed(Exchange& ex, Copy copy, int partner, int error) {
  const bool read = copy == Copy::kRead;
  return treering::Status::Network(ex.OpName() + (read ? ": reading" : ": writing") + " rank " +
                                   std::to_string(partner) + "'s buffer on this machine failed (" +
                                   (read ? "process_vm_readv: " : "process_vm_writev: ") +
                                   std::strerror(error) + "); did it exit?");
}

// Both operations: each rank reduces its slice of `off`; with `share` it also writes each
// reduced window into the same place of the partner's buffer.
treering::Status LocalPairReduce(Exchange& ex, const Topology& topo, std::uint8_t* buf,
                                 const std::vector<std::size_t>& off, const ReduceSpec& spec,
                                 ScratchArena& scratch, LocalReadState* state, bool share) {
  const int partner = 1 - topo.rank;
  Channel* ch = ex.To(partner);
  if (ch == nullptr) return treering::Status::Internal("no link to the partner rank");
  const std::uint64_t& probe = ProcessProbe();
  const LocalPairAnnounce announce{static_cast<std::uint64_t>(getpid()),
                                   reinterpret_cast<std::uint64_t>(buf),
                                   reinterpret_cast<std::uint64_t>(&probe), probe,
                                   reinterpret_cast<std::uint64_t>(&write_probe_sink)};
  const auto mine = announce.Encode();
  std::array<std::uint8_t, LocalPairAnnounce::kBytes> received{};
  treering::Status swapped = Swap(ex, ch, mine.data(), received.data(), mine.size());
  if (!swapped.ok()) return swapped;
  auto decoded = LocalPairAnnounce::Decode(received);
  if (!decoded.ok()) return decoded.status().WithContext(ex.OpName());
  const LocalPairAnnounce& theirs = decoded.value();
  using Mode = LocalReadState::Mode;
  const auto pid = static_cast<pid_t>(theirs.pid);
  if (state->mode == Mode::kUntried) {
    // A rank with rabit_local_read=false still takes part, answering no: both must agree.
    std::uint64_t seen = 0;
    const std::uint8_t ok_mine =
        state->enabled && pid > 0 && ReadFromProcess(pid, theirs.probe_address, &seen, 8) &&
                seen == theirs.probe_value && WriteToProcess(pid, theirs.sink_address, &seen, 8)
            ? 1
            : 0;
    std::uint8_t ok_theirs = 0;
    swapped = Swap(ex, ch, &ok_mine, &ok_theirs, 1);
    if (!swapped.ok()) return swapped;
    state->mode = ok_mine == 1 && ok_theirs == 1 ? Mode::kOn : Mode::kOff;
    state->partner_pid = static_cast<std::int64_t>(theirs.pid);
    if (state->mode == Mode::kOff) return treering::Status::Ok();  // the caller uses the socket
  } else if (static_cast<std::int64_t>(theirs.pid) != state->partner_pid) {
    // The reads may only ever target the process the probe verified.
    return treering::Status::Protocol(ex.OpName() + ": rank " + std::to_string(partner) +
                                      " announced process " + std::to_string(theirs.pid) +
                                      ", not the " + std::to_string(state->partner_pid) +
                                      " it announced before");
  }
  // The operands' order decides NaN payloads and which of -0 / +0 max picks. A reduce-scatter
  // keeps the ring's (ours on the left); an allreduce the recursive algorithms' (rank 0's value
  // on the left), so its bits do not depend on which algorithm ran.
  const ReduceFn reduce = share && topo.rank == 1 ? spec.reduce_peer_first : spec.reduce;
  // This rank's slice of the partner's buffer, a window at a time, reduced while in cache.
  const std::size_t begin = off[topo.rank], end = off[topo.rank + 1];
  const std::size_t window =
      std::max(spec.element_bytes, kExchangeWindowBytes / spec.element_bytes * spec.element_bytes);
  std::uint8_t* incoming = scratch.Get(0, window);
  for (std::size_t at = begin; at < end; at += window) {
    const std::size_t len = std::min(window, end - at);
    if (!ReadFromProcess(pid, theirs.buffer + at, incoming, len)) {
      return CopyFailed(ex, Copy::kRead, partner, errno);
    }
    reduce(buf + at, incoming, len / spec.element_bytes);
    if (share && !WriteToProcess(pid, theirs.buffer + at, buf + at, len)) {
      return CopyFailed(ex, Copy::kWrite, partner, errno);
    }
  }
  // Neither may return (and let its caller change the buffer) while the other still reads or
  // writes it.
  const std::uint8_t done = 1;
  std::uint8_t partner_done = 0;
  return Swap(ex, ch, &done, &partner_done, 1);
}

}  // namespace

treering::Status LocalPairReduceScatter(Exchange& ex, const Topology& topo, std::uint8_t* buf,
                                        const std::vector<std::size_t>& off, const ReduceSpec& spec,
                                        ScratchArena& scratch, LocalReadState* state) {
  return LocalPairReduce(ex, topo, buf, off, spec, scratch, state, /*share=*/false);
}

treering::Status LocalPairAllreduce(Exchange& ex, const Topology& topo, std::uint8_t* buf,
                                    std::size_t bytes, const ReduceSpec& spec,
                                    ScratchArena& scratch, LocalReadState* state) {
  const std::size_t half = bytes / spec.element_bytes / 2 * spec.element_bytes;
  return LocalPairReduce(ex, topo, buf, {0, half, bytes}, spec, scratch, state, /*share=*/true);
}

}  // namespace rabit::collective
