// FeatureOwnerSync (exact_syncs.h): the level's histograms reduce-scattered by feature owner.
// The level buffer is laid out rank-major, block r holding rank r's bin range of every node back
// to back, so one ReduceScatter leaves each rank the sums of exactly its own bins. Each rank sends
// (N-1)/N of the level on the ring (the allreduce sends twice that) and copies back 1/N.
#include <algorithm>

#include "booster/tree/sync/exact_syncs.h"

namespace treering::booster {

namespace {

// A node's histogram at least this large is reduce-scattered in place, one collective per
// node: copying the level into the rank-major buffer and this rank's sums back out cost 1.5x
// the level's bytes in memmove (Fashion-MNIST, 3.07 MB a node: 11.7 % of a 2-worker job's perf
// samples), more than a collective's latency per node costs (tens of us against ~1 ms of copies
// at 3 MB). Smaller nodes (higgs1m's 115 KB, deep levels of many nodes) keep one collective.
constexpr std::size_t kInPlaceNodeBytes = 256 << 10;

}  // namespace

void FeatureOwnerSync::SumLevel(const std::vector<Histogram*>& outs) {
  if (outs.empty()) return;
  const FeatureOwners& owners = owners_;
  const int world = owners.World();
  static_assert(sizeof(GradientPairInt) == 2 * sizeof(std::int64_t));
  if (std::size_t(total_bins_) * sizeof(GradientPairInt) >= kInPlaceNodeBytes) {
    // A node's histogram is already rank-major: rank r's features are one run of bins.
    std::vector<std::size_t> counts(static_cast<std::size_t>(world));
    for (int r = 0; r < world; ++r) {
      counts[r] = std::size_t(owners.BinEnd(r) - owners.BinBegin(r)) * 2;
    }
    for (Histogram* out : outs) {
      comm_->ReduceScatter<rabit::op::Sum>(reinterpret_cast<std::int64_t*>(out->data()), counts);
    }
    return;
  }
  std::vector<GradientPairInt>& level = level_buffer_;
  level.resize(outs.size() * std::size_t(total_bins_));
  std::vector<std::size_t> counts(static_cast<std::size_t>(world));
  std::size_t pos = 0, mine = 0;
  for (int r = 0; r < world; ++r) {
    const std::uint32_t begin = owners.BinBegin(r), end = owners.BinEnd(r);
    if (r == owners.Rank()) mine = pos;
    for (const Histogram* out : outs) {
      std::copy(out->begin() + begin, out->begin() + end, level.begin() + pos);
      pos += end - begin;
    }
    counts[r] = outs.size() * std::size_t(end - begin) * 2;  // int64 halves of each pair
  }
  const rabit::PhaseScope phase(*comm_, "histogram sync");
  comm_->ReduceScatter<rabit::op::Sum>(reinterpret_cast<std::int64_t*>(level.data()), counts);
  const std::uint32_t begin = owners.BinBegin(owners.Rank()), end = owners.BinEnd(owners.Rank());
  for (Histogram* out : outs) {
    std::copy_n(level.begin() + mine, end - begin, out->begin() + begin);
    mine += end - begin;
  }
}

}  // namespace treering::booster
