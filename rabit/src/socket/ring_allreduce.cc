// Ring allreduce = reduce-scatter + allgather (bandwidth-optimal: each rank sends and receives
// ~2(N-1)/N of the message). Data flows from ring_next to ring_prev. Segment j (elements
// [j*step, (j+1)*step) with step = ceil(count/N)) ends fully reduced on rank j. Rank r's
// outgoing stream is the circular byte range starting at segment r+1 and its incoming stream the
// range starting at segment r+2, so each byte it forwards is one it has just reduced.
#include <algorithm>

#include "socket/algorithms.h"

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

struct ReduceScatterState {
  std::uint8_t* buf = nullptr;
  const std::uint8_t* incoming = nullptr;  // scratch with the same layout as buf
  std::size_t bytes = 0;
  std::size_t recv_begin = 0;              // circular offset of incoming stream position 0
  std::size_t first_segment = 0;           // bytes we may send before reducing anything
  Channel* prev = nullptr;
  Channel* next = nullptr;
  std::size_t reduced = 0;                 // incoming stream bytes reduced into buf
  // Incoming stream positions where a segment ends. Reduction must reach each of them without
  // waiting for a whole chunk: the next segment only comes once the sender forwarded this one.
  std::vector<std::size_t> segment_ends;
};

// Reduces incoming stream positions [from, to) into buf, splitting at the wrap-around.
void ReduceCircular(ReduceScatterState& st, const ReduceSpec& spec, std::size_t from,
                    std::size_t to) {
  while (from < to) {
    const std::size_t pos = (st.recv_begin + from) % st.bytes;
    const std::size_t len = std::min(to - from, st.bytes - pos);
    spec.reduce(st.buf + pos, st.incoming + pos, len / spec.element_bytes);
    from += len;
  }
}

void AdvanceReduceScatter(ReduceScatterState& st, const ReduceSpec& spec) {
  const std::size_t total = st.next->recv.total;
  const std::size_t arrived = st.next->recv.done;
  std::size_t ready = ReducibleBytes(arrived, total, spec);
  for (std::size_t end : st.segment_ends) {
    if (end <= arrived && end > ready) ready = end;
  }
  if (ready > st.reduced) {
    ReduceCircular(st, spec, st.reduced, ready);
    st.reduced = ready;
  }
  st.prev->send.limit = std::min(st.prev->send.total, st.first_segment + st.reduced);
}

treering::Status ReduceScatter(Exchange& ex, const Topology& topo, std::uint8_t* buf,
                               const std::vector<std::size_t>& off, const ReduceSpec& spec,
                               ScratchArena& scratch) {
  const int n = topo.world, r = topo.rank;
  auto len = [&](int j) { return off[(j % n) + 1] - off[j % n]; };
  ReduceScatterState st;
  st.buf = buf;
  st.bytes = off[n];
  st.incoming = scratch.Get(0, st.bytes);
  st.recv_begin = off[(r + 2) % n];
  st.first_segment = len(r + 1);
  std::size_t end = 0;
  for (int k = 2; k <= n; ++k) st.segment_ends.push_back(end += len(r + k));
  st.prev = ex.To(topo.ring_prev);
  st.next = ex.To(topo.ring_next);
  if (st.prev == nullptr || st.next == nullptr) {
    return treering::Status::Internal("ring links missing");
  }
  ex.SetSend(st.prev, Flow{buf, st.bytes, off[(r + 1) % n], st.bytes - len(r), 0, 0});
  ex.SetRecv(st.next, Flow{const_cast<std::uint8_t*>(st.incoming), st.bytes, st.recv_begin,
                           st.bytes - len(r + 1), st.bytes - len(r + 1), 0});
  return ex.Run([&] { AdvanceReduceScatter(st, spec); });
}

}  // namespace

treering::Status RingAllreduce(Exchange& ex, const Topology& topo, std::uint8_t* buf,
                               std::size_t bytes, const ReduceSpec& spec, ScratchArena& scratch) {
  const auto offsets = SegmentOffsets(bytes, spec.element_bytes, topo.world);
  treering::Status scattered = ReduceScatter(ex, topo, buf, offsets, spec, scratch);
  if (!scattered.ok()) return scattered;
  return RingAllgather(ex, topo, buf, offsets);
}

}  // namespace rabit::transport
