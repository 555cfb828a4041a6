// The bins of one dense row (the values of features 0..nf-1 in order), found by the cuts'
// branch-free binary search (HistogramCuts::SearchBin's steps, so the same bins). Used by
// BinnedMatrix::Build for dense data, where the search is most of the bin index's time.
#pragma once

#include <cstdint>

#include "booster/hist_cuts.h"

namespace treering::booster {

// Eight features at a time on AVX2 CPUs (a gather per step for the eight searches), the rest
// scalar; false when the CPU has no AVX2 or a feature has no cut (the caller then searches
// with the scalar code).
bool HaveAvx2DenseBinSearch(const HistogramCuts& cuts);
// Local bins (0 .. cuts of the feature - 1) of `row` into `bins[0 .. nf)`; only after
// HaveAvx2DenseBinSearch(cuts) said yes.
void SearchDenseRowAvx2(const HistogramCuts& cuts, const float* row, std::uint32_t nf,
                        std::uint32_t* bins);

}  // namespace treering::booster
