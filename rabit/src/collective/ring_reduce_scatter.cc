// Ring reduce-scatter with per-rank slices (any size, zero included): one lap of the ring
// (ring_scatter_lap.h), so each rank sends (N-1)/N of the buffer, half of what the allreduce
// sends. The ring allreduce runs the same lap with its segments as the slices.
#include <algorithm>

#include "collective/algorithms.h"
#include "collective/ring_scatter_lap.h"

namespace rabit::collective {

using transport::Channel;
using transport::Exchange;
using transport::Flow;
using transport::Topology;

RingScatterLap RingScatterLap::Plan(const Topology& topo, std::uint8_t* buf,
                                    const std::vector<std::size_t>& off, ScratchArena& scratch) {
  const int n = topo.world, r = topo.rank;
  auto len = [&](int j) { return off[(j % n) + 1] - off[j % n]; };
  RingScatterLap lap;
  lap.buf = buf;
  lap.bytes = off[n];
  lap.incoming = scratch.Get(0, lap.bytes);
  lap.send_begin = off[(r + 1) % n];
  lap.first_slice = len(r + 1);
  lap.own_slice = len(r);
  lap.send_total = lap.bytes - len(r);
  lap.recv_total = lap.bytes - len(r + 1);
  lap.recv_begin = off[(r + 2) % n];
  std::size_t end = 0;
  for (int k = 2; k <= n; ++k) lap.slice_ends.push_back(end += len(r + k));
  return lap;
}

void RingScatterLap::ReduceArrived(std::size_t arrived, const ReduceSpec& spec) {
  std::size_t ready = ReducibleBytes(arrived, recv_total, spec);
  for (std::size_t end : slice_ends) {
    if (end <= arrived && end > ready) ready = end;
  }
  // Incoming positions [reduced, ready), split at the wrap-around of the circular buffer.
  while (reduced < ready) {
    const std::size_t pos = (recv_begin + reduced) % bytes;
    const std::size_t len = std::min(ready - reduced, bytes - pos);
    spec.reduce(buf + pos, incoming + pos, len / spec.element_bytes);
    reduced += len;
  }
}

treering::Status RingReduceScatter(Exchange& ex, const Topology& topo, std::uint8_t* buf,
                                   const std::vector<std::size_t>& off, const ReduceSpec& spec,
                                   ScratchArena& scratch) {
  RingScatterLap lap = RingScatterLap::Plan(topo, buf, off, scratch);
  Channel* prev = ex.To(topo.ring_prev);
  Channel* next = ex.To(topo.ring_next);
  if (prev == nullptr || next == nullptr) return treering::Status::Internal("ring links missing");
  ex.SetSend(prev, Flow{buf, lap.bytes, lap.send_begin, lap.send_total, lap.first_slice, 0});
  ex.SetRecv(next, lap.RecvFlow());
  return ex.Run([&] {
    lap.ReduceArrived(next->recv.done, spec);
    prev->send.limit = lap.SendLimit();
  });
}

}  // namespace rabit::collective
