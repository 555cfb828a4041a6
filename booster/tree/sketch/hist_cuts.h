// HistogramCuts: per-feature bin boundaries (XGBoost 1.7 hist rules) and how they are built
// from a weighted quantile sketch of the training data, merged over all ranks.
//
// Feature f owns global bins [ptrs[f], ptrs[f+1]); bin b holds values in
// [values[b-1], values[b]) (the first bin starts at min_vals[f]); the last cut of a feature is
// the sentinel max + |max| + 1e-5, so every training value falls in some bin.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "base/status.h"
#include "data/dmatrix.h"
#include "rabit/comm.h"

namespace treering::booster {

struct HistogramCuts {
  std::vector<std::uint32_t> ptrs{0};
  std::vector<float> values;
  std::vector<float> min_vals;

  std::uint32_t NumFeatures() const { return static_cast<std::uint32_t>(ptrs.size() - 1); }
  std::uint32_t TotalBins() const { return ptrs.back(); }
  std::uint32_t FeatureBins(std::uint32_t f) const { return ptrs[f + 1] - ptrs[f]; }
  // Global bin of `value` in feature f: upper_bound over the cuts, clamped to the last bin.
  // Branch-free binary search: binning touches every training value once, and the branches
  // of std::upper_bound mispredict on half of the steps.
  std::uint32_t SearchBin(std::uint32_t f, float value) const {
    const float* base = values.data() + ptrs[f];
    std::uint32_t n = ptrs[f + 1] - ptrs[f];
    const float* first = base;
    while (n > 1) {
      const std::uint32_t half = n / 2;
      base += half * static_cast<std::uint32_t>(base[half - 1] <= value);  // no branch
      n -= half;
    }
    std::uint32_t bin = static_cast<std::uint32_t>(base - first) + (*base <= value ? 1 : 0);
    bin = std::min(bin, ptrs[f + 1] - ptrs[f] - 1);
    return ptrs[f] + bin;
  }
};

// Builds the cuts of `num_feature` features (the global count, agreed beforehand) from this
// rank's rows, merged with every other rank's sketch of `comm`. Sample weights weight the
// quantiles, as XGBoost's hist does.
HistogramCuts BuildCuts(const data::DMatrix& dm, std::uint32_t num_feature, int max_bin,
                        int nthread, rabit::Comm& comm);

}  // namespace treering::booster
