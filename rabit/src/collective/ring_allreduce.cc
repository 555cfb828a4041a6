// Ring allreduce = reduce-scatter + allgather (bandwidth-optimal: each rank sends and receives
// ~2(N-1)/N of the message). Data flows from ring_next to ring_prev. Segment j (elements
// [j*step, (j+1)*step) with step = ceil(count/N)) ends fully reduced on rank j.
//
// The first lap is the reduce-scatter's (ring_scatter_lap.h, with the segments as its slices).
// Rank r's reduce-scatter output starts at segment r+1 and ends where its own segment r begins;
// the allgather output starts at segment r. So the two laps form ONE outgoing stream (two laps
// round the buffer), and rank r starts sending its reduced segment chunk by chunk while that
// segment is still being reduced: the laps overlap instead of meeting at a barrier. The incoming
// stream switches from the scratch buffer (partial sums to reduce) to the buffer itself (final
// values) between the laps.
#include <algorithm>

#include "collective/algorithms.h"
#include "collective/ring_scatter_lap.h"

namespace rabit::collective {

using transport::Channel;
using transport::Exchange;
using transport::Flow;
using transport::Topology;

namespace {

// Byte offsets of the N segments (N+1 entries), element-aligned.
std::vector<std::size_t> SegmentOffsets(std::size_t bytes, std::size_t element_bytes, int world) {
  const std::size_t count = bytes / element_bytes;
  const std::size_t step = (count + world - 1) / world;
  std::vector<std::size_t> offsets(world + 1);
  for (int j = 0; j <= world; ++j) {
    offsets[j] = std::min(count, step * static_cast<std::size_t>(j)) * element_bytes;
  }
  return offsets;
}

struct RingState {
  RingScatterLap scatter;
  Channel* prev = nullptr;
  Channel* next = nullptr;
  std::size_t gather_send = 0;   // outgoing bytes of the allgather lap: all but segment r-1
  std::size_t gather_recv = 0;   // incoming final values: all but segment r
  std::size_t gather_begin = 0;  // circular offset where the allgather input starts (r+1)
  bool gathering = false;        // incoming stream now carries final values
};

// Outgoing bytes that may have gone: the scatter lap's, then our own reduced segment as it
// completes, then the final values received from next.
std::size_t SendLimit(const RingState& st) {
  const RingScatterLap& lap = st.scatter;
  std::size_t gather = 0;
  if (st.gathering) {
    gather = std::min(st.gather_send, lap.own_slice + st.next->recv.done);
  } else {
    const std::size_t own_starts = lap.recv_total - lap.own_slice;
    gather = lap.reduced > own_starts ? lap.reduced - own_starts : 0;
  }
  return lap.SendLimit() + gather;
}

void Advance(Exchange& ex, RingState& st, const ReduceSpec& spec) {
  if (!st.gathering) {
    st.scatter.ReduceArrived(st.next->recv.done, spec);
    if (st.scatter.Done()) {
      st.gathering = true;
      const RingScatterLap& lap = st.scatter;
      ex.SetRecv(st.next,
                 Flow{lap.buf, lap.bytes, st.gather_begin, st.gather_recv, st.gather_recv, 0});
    }
  }
  st.prev->send.limit = SendLimit(st);
}

}  // namespace

treering::Status RingAllreduce(Exchange& ex, const Topology& topo, std::uint8_t* buf,
                               std::size_t bytes, const ReduceSpec& spec, ScratchArena& scratch) {
  const int n = topo.world, r = topo.rank;
  const auto off = SegmentOffsets(bytes, spec.element_bytes, n);
  RingState st;
  st.scatter = RingScatterLap::Plan(topo, buf, off, scratch);
  st.gather_send = bytes - (off[(r + n - 1) % n + 1] - off[(r + n - 1) % n]);
  st.gather_recv = bytes - st.scatter.own_slice;
  st.gather_begin = off[(r + 1) % n];
  st.prev = ex.To(topo.ring_prev);
  st.next = ex.To(topo.ring_next);
  if (st.prev == nullptr || st.next == nullptr) {
    return treering::Status::Internal("ring links missing");
  }
  const RingScatterLap& lap = st.scatter;
  ex.SetSend(st.prev,
             Flow{buf, bytes, lap.send_begin, lap.send_total + st.gather_send, lap.first_slice, 0});
  ex.SetRecv(st.next, lap.RecvFlow());
  return ex.Run([&] { Advance(ex, st, spec); });
}

}  // namespace rabit::collective
