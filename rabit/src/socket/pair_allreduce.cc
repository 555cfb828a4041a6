// Pair allreduce, for a world of two: both ranks send their whole buffer at once and reduce the
// peer's as it arrives (recursive doubling's single step, as Open MPI does at two ranks).
//   * latency: one one-way trip per op, where the tree needs a round trip (up, then down);
//   * bandwidth: the same bytes per direction as the ring (the whole message), without the
//     ring's dependency of its second lap on the first.
// Incoming bytes land in a small circular window of scratch and are reduced into the buffer
// while still in cache, instead of streaming the whole message through a second buffer.
// Sends are paced to at most kSendAheadBytes beyond what has arrived from the peer: unpaced, a
// rank pushed its whole message through loopback in one sendmsg before receiving or reducing
// anything (4 MiB: ~9 ms unpaced, ~1 ms paced; docs/benchmarks.md).
//
// Two rules keep it correct:
//   * a byte of buf is overwritten by the reduction only after the kernel took our copy of it
//     (send.done), since the peer must receive our own values, not the sums;
//   * both ranks compute op(rank 0's value, rank 1's value), in that operand order (the
//     Communicator picks the reducer's OperandOrder), so results are bit-identical on both.
#include <algorithm>

#include "socket/algorithms.h"

namespace rabit::transport {
namespace {

struct PairState {
  std::uint8_t* buf = nullptr;
  std::size_t bytes = 0;
  std::uint8_t* window = nullptr;
  std::size_t window_bytes = 0;
  Channel* peer = nullptr;
  std::size_t reduced = 0;  // stream prefix already reduced into buf
};

void Advance(PairState& st, const ReduceSpec& spec) {
  const std::size_t sent = st.peer->send.done / spec.element_bytes * spec.element_bytes;
  const std::size_t ready = std::min(ReducibleBytes(st.peer->recv.done, st.bytes, spec), sent);
  if (ready > st.reduced) {
    ReduceFromWindow(st.buf, st.window, st.window_bytes, spec, st.reduced, ready);
    st.reduced = ready;
  }
  st.peer->recv.limit = std::min(st.bytes, st.reduced + st.window_bytes);
  st.peer->send.limit = std::min(st.bytes, st.peer->recv.done + kSendAheadBytes);
}

}  // namespace

std::size_t ExchangeWindowBytes(std::size_t bytes, const ReduceSpec& spec) {
  const std::size_t wanted = std::max(kExchangeWindowBytes, 2 * spec.chunk_bytes);
  return std::max(spec.element_bytes,
                  std::min(bytes, wanted) / spec.element_bytes * spec.element_bytes);
}

void ReduceFromWindow(std::uint8_t* dst, const std::uint8_t* window, std::size_t window_bytes,
                      const ReduceSpec& spec, std::size_t from, std::size_t to) {
  while (from < to) {
    const std::size_t pos = from % window_bytes;
    const std::size_t len = std::min(to - from, window_bytes - pos);
    spec.reduce(dst + from, window + pos, len / spec.element_bytes);
    from += len;
  }
}

treering::Status PairAllreduce(Exchange& ex, const Topology& topo, std::uint8_t* buf,
                               std::size_t bytes, const ReduceSpec& spec, ScratchArena& scratch) {
  PairState st;
  st.buf = buf;
  st.bytes = bytes;
  st.window_bytes = ExchangeWindowBytes(bytes, spec);
  st.window = scratch.Get(0, st.window_bytes);
  st.peer = ex.To(topo.ring_next);
  if (topo.world != 2 || st.peer == nullptr) {
    return treering::Status::Internal("pair allreduce needs a world of two with a ring link");
  }
  ex.SetSend(st.peer, Flow{buf, 0, 0, bytes, std::min(bytes, kSendAheadBytes), 0});
  ex.SetRecv(st.peer, Flow{st.window, st.window_bytes, 0, bytes, st.window_bytes, 0});
  return ex.Run([&] { Advance(st, spec); });
}

}  // namespace rabit::transport
