#include "feature_owners.h"

#include <algorithm>

#include "base/parallel_for.h"
#include "booster/work_split.h"

namespace treering::booster {

// Rank r's run ends at the first feature boundary at or past r+1 shares of the bins: greedy
// cuts on the prefix sums, the same on every rank (ptrs are global after the sketch merge).
FeatureOwners::FeatureOwners(const std::vector<std::uint32_t>& ptrs, int world, int rank)
    : rank_(rank) {
  const std::size_t features = ptrs.size() - 1;
  const std::uint64_t total = ptrs.back();
  owner_of_.assign(features, world - 1);
  bin_begin_.assign(static_cast<std::size_t>(world) + 1, ptrs.back());
  bin_begin_[0] = 0;
  std::size_t f = 0;
  for (int r = 0; r < world; ++r) {
    bin_begin_[r] = ptrs[f];
    const std::uint64_t target = total * static_cast<std::uint64_t>(r + 1) / world;
    // Take the feature that crosses the target if that leaves the cut nearer to it.
    while (f < features && (ptrs[f + 1] <= target ||
                            (ptrs[f] < target && target - ptrs[f] > ptrs[f + 1] - target))) {
      owner_of_[f] = r;
      ++f;
    }
  }
  for (; f < features; ++f) owner_of_[f] = world - 1;
  bin_begin_[world] = ptrs.back();
}

void SubtractOwnedBins(const FeatureOwners& owners, const std::vector<const Histogram*>& parents,
                       const std::vector<const Histogram*>& children,
                       const std::vector<Histogram*>& outs, std::uint32_t total_bins, int nthread) {
  const std::uint32_t begin = owners.BinBegin(owners.Rank());
  const std::uint32_t end = owners.BinEnd(owners.Rank());
  for (Histogram* out : outs) out->resize(total_bins);
  ParallelFor(outs.size(), ThreadsFor(outs.size() * std::size_t(end - begin), nthread),
              [&](std::size_t i) {
                const Histogram &parent = *parents[i], &child = *children[i];
                Histogram& out = *outs[i];
                for (std::uint32_t b = begin; b < end; ++b) out[b] = parent[b] - child[b];
              });
}

}  // namespace treering::booster
