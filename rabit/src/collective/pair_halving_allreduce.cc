// Halving allreduce for a world of two: a reduce-scatter then an allgather, streamed as one
// message each way. Rank 0 owns the low half of the buffer, rank 1 the high half. Each rank
//   1. sends the half it does not own (raw) while receiving the peer's copy of the half it
//      owns, reduced into place as it arrives (through the small circular window, as the pair
//      exchange does), then
//   2. sends its owned half as soon as each chunk is reduced, while receiving the other half's
//      final values straight into place.
// Both directions carry the whole message once, as in the pair exchange, but each rank reduces
// only half of it. At two ranks on a core each the kernel's socket copies and the reduction
// share one core per rank, so halving the reduction is what shortens the call
// (docs/benchmarks.md, "Measurements behind code comments"). The price is a second one-way
// trip before the first results arrive, so the pair exchange stays better for small messages.
//
// Each rank's send stream is one circular Flow over the whole buffer starting at the half it
// does not own, so stage 2's bytes follow stage 1's without a pause. Two rules keep it right:
//   * the final values of the non-owned half may land only over bytes we have already sent
//     raw (the peer needs our values, not its results);
//   * an element's result is computed by its owner alone and copied to the other rank, so both
//     hold the same bits; the owner puts rank 0's value on the left (Communicator's operand
//     order), as the pair exchange does.
#include <algorithm>

#include "collective/algorithms.h"

namespace rabit::transport {
namespace {

struct PairHalvingState {
  std::uint8_t* buf = nullptr;
  Channel* peer = nullptr;
  std::size_t own_bytes = 0;    // this rank's half: reduced here
  std::size_t other_begin = 0;  // the peer's half: sent raw, then received final
  std::size_t other_bytes = 0;
  WindowedReduction own;   // stage 1: the peer's copy of our half
  bool gathering = false;  // stage 2: receiving the peer's final half
};

void StartGather(Exchange& ex, PairHalvingState& st) {
  st.gathering = true;
  ex.SetRecv(st.peer, Flow{st.buf + st.other_begin, 0, 0, st.other_bytes, 0, 0});
}

void Advance(Exchange& ex, PairHalvingState& st, const ReduceSpec& spec) {
  Channel& peer = *st.peer;
  if (!st.gathering && st.own.Advance(peer.recv, spec)) StartGather(ex, st);
  if (st.gathering) peer.recv.limit = std::min(st.other_bytes, peer.send.done);
  // Both stages' sends are paced by that stage's arrivals, and results go out only once
  // reduced. Unpaced, stage 2 pushed each reduced chunk at once and the bursts halved the
  // next stage's throughput (docs/benchmarks.md, "Measurements behind code comments").
  const std::size_t arrived = st.gathering ? st.own_bytes : peer.recv.done;
  const std::size_t raw = PacedSendLimit(st.other_bytes, arrived, st.own_bytes);
  if (raw < st.other_bytes) {
    peer.send.limit = raw;
    return;
  }
  const std::size_t results =
      PacedSendLimit(st.own_bytes, st.gathering ? peer.recv.done : 0, st.other_bytes);
  peer.send.limit = st.other_bytes + std::min(st.own.reduced, results);
}

}  // namespace

treering::Status PairHalvingAllreduce(Exchange& ex, const Topology& topo, std::uint8_t* buf,
                                      std::size_t bytes, const ReduceSpec& spec,
                                      ScratchArena& scratch) {
  PairHalvingState st;
  st.buf = buf;
  st.peer = ex.To(topo.ring_next);
  if (topo.world != 2 || st.peer == nullptr) {
    return treering::Status::Internal(
        "pair halving allreduce needs a world of two with a ring link");
  }
  const std::size_t count = bytes / spec.element_bytes;
  const std::size_t low = (count + 1) / 2 * spec.element_bytes;  // rank 0's half
  const std::size_t own_begin = topo.rank == 0 ? 0 : low;
  st.own_bytes = topo.rank == 0 ? low : bytes - low;
  st.other_begin = topo.rank == 0 ? low : 0;
  st.other_bytes = bytes - st.own_bytes;
  // One stream over the whole buffer, starting at the non-owned half and wrapping to the owned.
  ex.SetSend(st.peer, Flow{buf, bytes, st.other_begin, bytes, 0, 0});
  if (st.own_bytes == 0) {
    StartGather(ex, st);
  } else {
    st.own = WindowedReduction::Start(buf + own_begin, st.own_bytes, spec, scratch);
    ex.SetRecv(st.peer, st.own.RecvFlow());
  }
  return ex.Run([&] { Advance(ex, st, spec); });
}

}  // namespace rabit::transport
