// The bins of one dense row (the values of features 0..nf-1 in order), found by the cuts'
// branch-free binary search (HistogramCuts::SearchBin's steps, so the same bins). Used by
// BinnedMatrix::Build for dense data, where the search is most of the bin index's time.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "booster/tree/sketch/hist_cuts.h"

namespace treering::booster {

// Eight features at a time on AVX2 CPUs: each step of the eight searches is one gather of the
// probed cuts. What the search needs of the cuts is the same for every row, so it is laid out
// once: each group of eight features' first cut and cut count (the last group's lanes past the
// last feature search a one-cut stand-in and are not stored) and each block of groups' step
// count, its longest feature's.
class DenseBinSearchAvx2 {
 public:
  // None when the CPU has no AVX2, a feature has no cut or the cuts are too many for the
  // gathers' int32 indices (the caller then searches with the scalar code). The cuts must
  // outlive the search.
  static std::optional<DenseBinSearchAvx2> For(const HistogramCuts& cuts);

  // Local bins (0 .. cuts of the feature - 1) of `row` (all features) into `bins`.
  void Row(const float* row, std::uint32_t* bins) const;

 private:
  explicit DenseBinSearchAvx2(const HistogramCuts& cuts);

  const float* cut_values_;
  std::uint32_t nf_;
  std::vector<std::uint32_t> first_;  // eight lanes per group
  std::vector<std::uint32_t> count_;
  std::vector<std::uint32_t> steps_;  // per block of up to kGroups groups
};

}  // namespace treering::booster
