// FeatureOwners: which rank sums and evaluates which features' histogram bins when the level's
// histograms are reduce-scattered instead of allreduced (tree_learner=data, LightGBM's
// data-parallel learner). Each rank owns one contiguous run of features, cut so the ranks' bin
// counts are as even as whole features allow: a rank's summed slice of a node's histogram is
// one contiguous bin range, and the bins it scans (split evaluation costs ~ bins) are ~1/N.
//
// A rank's histograms are only valid on its own bin range after the reduce-scatter; nothing
// else may read the other bins (the tree grower falls back to the allreduce where something
// does: categorical splits read the whole histogram of the split feature).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "booster/tree/hist/histogram.h"

namespace treering::booster {

class FeatureOwners {
 public:
  // feature_ptrs: HistogramCuts::ptrs (feature f owns bins [ptrs[f], ptrs[f+1])).
  FeatureOwners(const std::vector<std::uint32_t>& feature_ptrs, int world, int rank);

  int World() const { return static_cast<int>(bin_begin_.size()) - 1; }
  int Rank() const { return rank_; }
  // Per feature, the rank that evaluates it.
  const std::vector<int>& OwnerOfFeature() const { return owner_of_; }
  // Rank r's bins: [BinBegin(r), BinEnd(r)).
  std::uint32_t BinBegin(int r) const { return bin_begin_[r]; }
  std::uint32_t BinEnd(int r) const { return bin_begin_[r + 1]; }

 private:
  int rank_;
  std::vector<int> owner_of_;
  std::vector<std::uint32_t> bin_begin_;  // world + 1 entries
};

}  // namespace treering::booster
