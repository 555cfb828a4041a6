// The level's histograms reduce-scattered by feature owner (tree_learner=data): the level
// buffer is laid out rank-major, block r holding rank r's bin range of every node back to back,
// so one ReduceScatter leaves each rank the sums of exactly its own bins. Each rank sends
// (N-1)/N of the level on the ring (the allreduce sends twice that) and copies back 1/N.
#include <algorithm>

#include "booster/histogram.h"
#include "feature_owners.h"

namespace treering::booster {

void HistogramBuilder::ReduceScatterLevel(const std::vector<Histogram*>& outs) {
  const FeatureOwners& owners = *owners_;
  const int world = owners.World();
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
  static_assert(sizeof(GradientPairInt) == 2 * sizeof(std::int64_t));
  comm_->ReduceScatter<rabit::op::Sum>(reinterpret_cast<std::int64_t*>(level.data()), counts);
  const std::uint32_t begin = owners.BinBegin(owners.Rank()), end = owners.BinEnd(owners.Rank());
  for (Histogram* out : outs) {
    std::copy_n(level.begin() + mine, end - begin, out->begin() + begin);
    mine += end - begin;
  }
}

}  // namespace treering::booster
