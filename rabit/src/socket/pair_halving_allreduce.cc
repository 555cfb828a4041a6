// Halving allreduce for a world of two: a reduce-scatter then an allgather, streamed as one
// message each way. Rank 0 owns the low half of the buffer, rank 1 the high half. Each rank
//   1. sends the half it does not own (raw) while receiving the peer's copy of the half it
//      owns, reduced into place as it arrives (through the small circular window, as the pair
//      exchange does), then
//   2. sends its owned half as soon as each chunk is reduced, while receiving the other half's
//      final values straight into place.
// Both directions carry the whole message once, as in the pair exchange, but each rank reduces
// only half of it. At two ranks on a core each the kernel's socket copies and the reduction
// share one core per rank, so halving the reduction is what shortens the call (1 MiB float
// sum: the reduction is ~31 us of ~225 us; docs/benchmarks.md). The price is a second one-way
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

#include "socket/algorithms.h"

namespace rabit::transport {
namespace {

struct PairHalvingState {
  std::uint8_t* buf = nullptr;
  Channel* peer = nullptr;
  std::size_t own_begin = 0;    // this rank's half: reduced here
  std::size_t own_bytes = 0;
  std::size_t other_begin = 0;  // the peer's half: sent raw, then received final
  std::size_t other_bytes = 0;
  std::uint8_t* window = nullptr;
  std::size_t window_bytes = 0;
  std::size_t reduced = 0;  // bytes of the owned half reduced
  bool gathering = false;   // stage 2: receiving the peer's final half
};

void StartGather(Exchange& ex, PairHalvingState& st) {
  st.gathering = true;
  ex.SetRecv(st.peer, Flow{st.buf + st.other_begin, 0, 0, st.other_bytes, 0, 0});
}

void Advance(Exchange& ex, PairHalvingState& st, const ReduceSpec& spec) {
  Channel& peer = *st.peer;
  if (!st.gathering) {
    const std::size_t ready = ReducibleBytes(peer.recv.done, st.own_bytes, spec);
    if (ready > st.reduced) {
      ReduceFromWindow(st.buf + st.own_begin, st.window, st.window_bytes, spec, st.reduced, ready);
      st.reduced = ready;
    }
    peer.recv.limit = std::min(st.own_bytes, st.reduced + st.window_bytes);
    if (st.reduced == st.own_bytes) StartGather(ex, st);
  }
  if (st.gathering) peer.recv.limit = std::min(st.other_bytes, peer.send.done);
  // Both stages' sends run at most kSendAheadBytes beyond that stage's arrivals (plus what
  // this rank sends beyond what it receives: the halves differ by at most one element), and
  // results go out only once reduced. Unpaced, stage 2 pushed each reduced chunk at once and
  // the bursts halved the next stage's throughput: 4 MiB 1.8 ms instead of 0.95 ms.
  const std::size_t arrived = st.gathering ? st.own_bytes : peer.recv.done;
  const std::size_t raw_surplus = st.other_bytes > st.own_bytes ? st.other_bytes - st.own_bytes : 0;
  const std::size_t raw = std::min(st.other_bytes, arrived + kSendAheadBytes + raw_surplus);
  if (raw < st.other_bytes) {
    peer.send.limit = raw;
    return;
  }
  const std::size_t gathered = st.gathering ? peer.recv.done : 0;
  const std::size_t own_surplus = st.own_bytes > st.other_bytes ? st.own_bytes - st.other_bytes : 0;
  const std::size_t results = std::min(st.reduced, gathered + kSendAheadBytes + own_surplus);
  peer.send.limit = st.other_bytes + results;
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
  st.own_begin = topo.rank == 0 ? 0 : low;
  st.own_bytes = topo.rank == 0 ? low : bytes - low;
  st.other_begin = topo.rank == 0 ? low : 0;
  st.other_bytes = bytes - st.own_bytes;
  // One stream over the whole buffer, starting at the non-owned half and wrapping to the owned.
  ex.SetSend(st.peer, Flow{buf, bytes, st.other_begin, bytes, 0, 0});
  if (st.own_bytes == 0) {
    StartGather(ex, st);
  } else {
    st.window_bytes = ExchangeWindowBytes(st.own_bytes, spec);
    st.window = scratch.Get(0, st.window_bytes);
    ex.SetRecv(st.peer, Flow{st.window, st.window_bytes, 0, st.own_bytes, 0, 0});
  }
  return ex.Run([&] { Advance(ex, st, spec); });
}

}  // namespace rabit::transport
