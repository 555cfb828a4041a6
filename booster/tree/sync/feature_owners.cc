#include "booster/tree/sync/feature_owners.h"

#include <algorithm>

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

}  // namespace treering::booster
