// Ring reduce-scatter with per-rank slices (any size, zero included): the first lap of the ring
// allreduce (ring_allreduce.cc) with the caller's slices as the segments. Data flows from
// ring_next to ring_prev (Topology contract: ring_prev == rank-1), so slice j starts as rank
// j+1's raw value, gains one rank's contribution per hop and ends fully reduced on rank j.
//
// Rank r's outgoing stream is the circular byte range starting at slice r+1 and ending where
// its own slice r begins: slice r+1 goes out raw, every later slice once the partial sum from
// ring_next has been reduced into it. The incoming stream (slices r+2 .. r, into scratch with
// buf's layout) is reduced into buf as it arrives, so each rank sends (N-1)/N of the buffer:
// half of what the allreduce sends.
#include <algorithm>

#include "collective/algorithms.h"

namespace rabit::transport {
namespace {

struct ScatterState {
  std::uint8_t* buf = nullptr;
  std::uint8_t* incoming = nullptr;  // scratch with the same layout as buf
  std::size_t bytes = 0;
  Channel* prev = nullptr;
  Channel* next = nullptr;
  std::size_t first_slice = 0;  // len(r+1): sent before anything is reduced
  std::size_t send_total = 0;   // bytes - len(r)
  std::size_t recv_total = 0;   // bytes - len(r+1)
  std::size_t recv_begin = 0;   // circular offset of incoming stream position 0
  // Incoming positions where a slice ends: reduction reaches each without waiting for a whole
  // chunk, since the sender's next slice only comes once we forwarded this one.
  std::vector<std::size_t> slice_ends;
  std::size_t reduced = 0;  // incoming bytes reduced into buf
};

ScatterState Plan(const Topology& topo, std::uint8_t* buf, const std::vector<std::size_t>& off,
                  ScratchArena& scratch) {
  const int n = topo.world, r = topo.rank;
  auto len = [&](int j) { return off[(j % n) + 1] - off[j % n]; };
  ScatterState st;
  st.buf = buf;
  st.bytes = off[n];
  st.incoming = scratch.Get(0, st.bytes);
  st.first_slice = len(r + 1);
  st.send_total = st.bytes - len(r);
  st.recv_total = st.bytes - len(r + 1);
  st.recv_begin = off[(r + 2) % n];
  std::size_t end = 0;
  for (int k = 2; k <= n; ++k) st.slice_ends.push_back(end += len(r + k));
  return st;
}

// Reduces incoming stream positions [from, to) into buf, splitting at the wrap-around.
void ReduceCircular(ScatterState& st, const ReduceSpec& spec, std::size_t from, std::size_t to) {
  while (from < to) {
    const std::size_t pos = (st.recv_begin + from) % st.bytes;
    const std::size_t len = std::min(to - from, st.bytes - pos);
    spec.reduce(st.buf + pos, st.incoming + pos, len / spec.element_bytes);
    from += len;
  }
}

void Advance(ScatterState& st, const ReduceSpec& spec) {
  const std::size_t arrived = st.next->recv.done;
  std::size_t ready = ReducibleBytes(arrived, st.recv_total, spec);
  for (std::size_t end : st.slice_ends) {
    if (end <= arrived && end > ready) ready = end;
  }
  if (ready > st.reduced) {
    ReduceCircular(st, spec, st.reduced, ready);
    st.reduced = ready;
  }
  // The outgoing stream after slice r+1 is the incoming one, position for position.
  st.prev->send.limit = std::min(st.send_total, st.first_slice + st.reduced);
}

}  // namespace

treering::Status RingReduceScatter(Exchange& ex, const Topology& topo, std::uint8_t* buf,
                                   const std::vector<std::size_t>& off, const ReduceSpec& spec,
                                   ScratchArena& scratch) {
  ScatterState st = Plan(topo, buf, off, scratch);
  st.prev = ex.To(topo.ring_prev);
  st.next = ex.To(topo.ring_next);
  if (st.prev == nullptr || st.next == nullptr) {
    return treering::Status::Internal("ring links missing");
  }
  const int n = topo.world;
  ex.SetSend(st.prev,
             Flow{buf, st.bytes, off[(topo.rank + 1) % n], st.send_total, st.first_slice, 0});
  ex.SetRecv(st.next, Flow{st.incoming, st.bytes, st.recv_begin, st.recv_total, st.recv_total, 0});
  return ex.Run([&] { Advance(st, spec); });
}

}  // namespace rabit::transport
