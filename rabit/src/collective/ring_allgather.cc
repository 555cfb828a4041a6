// Ring allgather: rank r sends its own slice to ring_prev, then forwards every slice it receives
// from ring_next except the one ring_prev owns. Slices may differ in size (zero included); the
// streams are circular byte ranges of buf, so no per-slice bookkeeping is needed.
#include <algorithm>

#include "collective/algorithms.h"

namespace rabit::collective {

using transport::Channel;
using transport::Exchange;
using transport::Flow;
using transport::Topology;

treering::Status RingAllgather(Exchange& ex, const Topology& topo, std::uint8_t* buf,
                               const std::vector<std::size_t>& off) {
  const int n = topo.world, r = topo.rank;
  auto len = [&](int j) { return off[(j % n) + 1] - off[j % n]; };
  const std::size_t bytes = off[n];
  Channel* prev = ex.To(topo.ring_prev);
  Channel* next = ex.To(topo.ring_next);
  if (prev == nullptr || next == nullptr) return treering::Status::Internal("ring links missing");
  const std::size_t own = len(r);
  ex.SetSend(prev, Flow{buf, bytes, off[r], bytes - len(r + n - 1), own, 0});
  ex.SetRecv(next, Flow{buf, bytes, off[(r + 1) % n], bytes - own, bytes - own, 0});
  return ex.Run([&] {
    // Whatever arrived from next may be forwarded: it sits right after our slice in the stream.
    prev->send.limit = std::min(prev->send.total, own + next->recv.done);
  });
}

}  // namespace rabit::collective
