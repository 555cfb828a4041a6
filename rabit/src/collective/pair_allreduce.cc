// Pair allreduce, for a world of two: both ranks send their whole buffer at once and reduce the
// peer's as it arrives (recursive doubling's single step, as Open MPI does at two ranks).
//   * latency: one one-way trip per op, where the tree needs a round trip (up, then down);
//   * bandwidth: the same bytes per direction as the ring (the whole message), without the
//     ring's dependency of its second lap on the first.
// Incoming bytes land in a small circular window of scratch and are reduced into the buffer
// while still in cache, instead of streaming the whole message through a second buffer.
// Sends are paced to at most kSendAheadBytes beyond what has arrived from the peer: unpaced, a
// rank pushed its whole message through loopback in one sendmsg before receiving or reducing
// anything (docs/benchmarks.md, "Measurements behind code comments").
//
// Two rules keep it correct:
//   * a byte of buf is overwritten by the reduction only after the kernel took our copy of it
//     (send.done), since the peer must receive our own values, not the sums;
//   * both ranks compute op(rank 0's value, rank 1's value), in that operand order (the
//     Communicator picks the reducer's OperandOrder), so results are bit-identical on both.
#include <algorithm>

#include "collective/algorithms.h"

namespace rabit::transport {

treering::Status PairAllreduce(Exchange& ex, const Topology& topo, std::uint8_t* buf,
                               std::size_t bytes, const ReduceSpec& spec, ScratchArena& scratch) {
  Channel* peer = ex.To(topo.ring_next);
  if (topo.world != 2 || peer == nullptr) {
    return treering::Status::Internal("pair allreduce needs a world of two with a ring link");
  }
  WindowedReduction in = WindowedReduction::Start(buf, bytes, spec, scratch);
  ex.SetSend(peer, Flow{buf, 0, 0, bytes, 0, 0});
  ex.SetRecv(peer, in.RecvFlow());
  return ex.Run([&] {
    // Our own value of a byte goes to the peer before the sum overwrites it.
    in.Advance(peer->recv, spec, peer->send.done / spec.element_bytes * spec.element_bytes);
    peer->send.limit = PacedSendLimit(bytes, peer->recv.done, bytes);
  });
}

}  // namespace rabit::transport
