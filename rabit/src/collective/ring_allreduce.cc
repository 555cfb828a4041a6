// Ring allreduce = reduce-scatter + allgather (bandwidth-optimal: each rank sends and receives
// ~2(N-1)/N of the message). Data flows from ring_next to ring_prev. Segment j (elements
// [j*step, (j+1)*step) with step = ceil(count/N)) ends fully reduced on rank j.
//
// Streams are circular byte ranges of the buffer. Rank r's reduce-scatter output starts at
// segment r+1 and ends where its own segment r begins; the allgather output starts at segment r.
// So the two phases form ONE outgoing stream (two laps round the buffer), and rank r starts
// sending its reduced segment chunk by chunk while that segment is still being reduced: the
// phases overlap instead of meeting at a barrier. The incoming stream switches from the scratch
// buffer (partial sums to reduce) to the buffer itself (final values) between the phases.
#include <algorithm>

#include "collective/algorithms.h"

namespace rabit::transport {
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
  std::uint8_t* buf = nullptr;
  std::uint8_t* incoming = nullptr;  // scratch with the same layout as buf
  std::size_t bytes = 0;
  Channel* prev = nullptr;
  Channel* next = nullptr;
  std::size_t first_segment = 0;  // len(r+1): sent before anything is reduced
  std::size_t own_segment = 0;    // len(r)
  std::size_t scatter_send = 0;   // outgoing bytes of the reduce-scatter lap
  std::size_t gather_send = 0;    // outgoing bytes of the allgather lap
  std::size_t scatter_recv = 0;   // incoming partial sums
  std::size_t gather_recv = 0;    // incoming final values
  std::size_t recv_begin = 0;     // circular offset of incoming stream position 0
  std::size_t gather_begin = 0;   // circular offset where the allgather input starts
  // Incoming stream positions where a segment ends. Reduction must reach each of them without
  // waiting for a whole chunk: the next segment only comes once the sender forwarded this one.
  std::vector<std::size_t> segment_ends;
  std::size_t reduced = 0;  // incoming partial-sum bytes reduced into buf
  bool gathering = false;   // incoming stream now carries final values
};

RingState Plan(const Topology& topo, std::uint8_t* buf, const std::vector<std::size_t>& off,
               ScratchArena& scratch) {
  const int n = topo.world, r = topo.rank;
  auto len = [&](int j) { return off[(j % n) + 1] - off[j % n]; };
  RingState st;
  st.buf = buf;
  st.bytes = off[n];
  st.incoming = scratch.Get(0, st.bytes);
  st.first_segment = len(r + 1);
  st.own_segment = len(r);
  st.scatter_send = st.bytes - len(r);
  st.gather_send = st.bytes - len(r + n - 1);
  st.scatter_recv = st.bytes - len(r + 1);
  st.gather_recv = st.bytes - len(r);
  st.recv_begin = off[(r + 2) % n];
  st.gather_begin = off[(r + 1) % n];
  std::size_t end = 0;
  for (int k = 2; k <= n; ++k) st.segment_ends.push_back(end += len(r + k));
  return st;
}

// Reduces incoming stream positions [from, to) into buf, splitting at the wrap-around.
void ReduceCircular(RingState& st, const ReduceSpec& spec, std::size_t from, std::size_t to) {
  while (from < to) {
    const std::size_t pos = (st.recv_begin + from) % st.bytes;
    const std::size_t len = std::min(to - from, st.bytes - pos);
    spec.reduce(st.buf + pos, st.incoming + pos, len / spec.element_bytes);
    from += len;
  }
}

void ReduceArrived(RingState& st, const ReduceSpec& spec) {
  const std::size_t arrived = st.next->recv.done;
  std::size_t ready = ReducibleBytes(arrived, st.scatter_recv, spec);
  for (std::size_t end : st.segment_ends) {
    if (end <= arrived && end > ready) ready = end;
  }
  if (ready > st.reduced) {
    ReduceCircular(st, spec, st.reduced, ready);
    st.reduced = ready;
  }
}

// Outgoing bytes that may have gone: reduced partial sums on the first lap, then our own reduced
// segment as it completes, then the final values received from next.
std::size_t SendLimit(const RingState& st) {
  const std::size_t scatter = std::min(st.scatter_send, st.first_segment + st.reduced);
  std::size_t gather = 0;
  if (st.gathering) {
    gather = std::min(st.gather_send, st.own_segment + st.next->recv.done);
  } else {
    const std::size_t own_starts = st.scatter_recv - st.own_segment;
    gather = st.reduced > own_starts ? st.reduced - own_starts : 0;
  }
  return scatter + gather;
}

void Advance(Exchange& ex, RingState& st, const ReduceSpec& spec) {
  if (!st.gathering) {
    ReduceArrived(st, spec);
    if (st.reduced == st.scatter_recv) {
      st.gathering = true;
      ex.SetRecv(st.next,
                 Flow{st.buf, st.bytes, st.gather_begin, st.gather_recv, st.gather_recv, 0});
    }
  }
  st.prev->send.limit = SendLimit(st);
}

}  // namespace

treering::Status RingAllreduce(Exchange& ex, const Topology& topo, std::uint8_t* buf,
                               std::size_t bytes, const ReduceSpec& spec, ScratchArena& scratch) {
  const auto off = SegmentOffsets(bytes, spec.element_bytes, topo.world);
  RingState st = Plan(topo, buf, off, scratch);
  st.prev = ex.To(topo.ring_prev);
  st.next = ex.To(topo.ring_next);
  if (st.prev == nullptr || st.next == nullptr) {
    return treering::Status::Internal("ring links missing");
  }
  const int r = topo.rank, n = topo.world;
  ex.SetSend(st.prev, Flow{buf, bytes, off[(r + 1) % n], st.scatter_send + st.gather_send,
                           st.first_segment, 0});
  ex.SetRecv(st.next, Flow{st.incoming, bytes, st.recv_begin, st.scatter_recv, st.scatter_recv, 0});
  return ex.Run([&] { Advance(ex, st, spec); });
}

}  // namespace rabit::transport
