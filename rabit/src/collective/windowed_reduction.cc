// The receive side and the send pacing shared by the pairwise steps (recursive doubling,
// halving-doubling): see algorithms.h.
#include <algorithm>

#include "collective/algorithms.h"

namespace rabit::collective {

using transport::Flow;

namespace {

// The window for a stream of `bytes`: at least two reduce chunks (so a whole chunk can always
// be reduced), whole elements, no larger than the stream, never empty.
std::size_t WindowBytes(std::size_t bytes, const ReduceSpec& spec) {
  const std::size_t wanted = std::max(kExchangeWindowBytes, 2 * spec.chunk_bytes);
  return std::max(spec.element_bytes,
                  std::min(bytes, wanted) / spec.element_bytes * spec.element_bytes);
}

}  // namespace

WindowedReduction WindowedReduction::Start(std::uint8_t* dst, std::size_t total,
                                           const ReduceSpec& spec, ScratchArena& scratch) {
  WindowedReduction w;
  w.dst = dst;
  w.total = total;
  w.window_bytes = WindowBytes(total, spec);
  w.window = scratch.Get(0, w.window_bytes);
  return w;
}

bool WindowedReduction::Advance(Flow& recv, const ReduceSpec& spec, std::size_t allowed) {
  const std::size_t ready = std::min(ReducibleBytes(recv.done, total, spec), allowed);
  while (reduced < ready) {  // at most two pieces: the window wraps around once
    const std::size_t pos = reduced % window_bytes;
    const std::size_t len = std::min(ready - reduced, window_bytes - pos);
    spec.reduce(dst + reduced, window + pos, len / spec.element_bytes);
    reduced += len;
  }
  recv.limit = std::min(total, reduced + window_bytes);
  return reduced == total;
}

std::size_t PacedSendLimit(std::size_t send_total, std::size_t recv_done, std::size_t recv_total,
                           std::size_t ahead) {
  const std::size_t surplus = send_total > recv_total ? send_total - recv_total : 0;
  return std::min(send_total, recv_done + std::max<std::size_t>(ahead, 1) + surplus);
}

}  // namespace rabit::collective
