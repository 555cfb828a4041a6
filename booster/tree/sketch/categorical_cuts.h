// The histogram bins of categorical features (feature_types c): as in XGBoost 1.7's
// AddCategories, one bin per category 0..max, where max is the largest category any rank saw;
// bin k holds category k, so a split's set of bins is its set of categories.
#pragma once

#include "base/status.h"
#include "booster/tree/sketch/hist_cuts.h"
#include "booster/tree_param.h"
#include "data/dmatrix.h"
#include "rabit/comm.h"

namespace treering::booster {

// The largest category a feature may hold: treering's bins are 16-bit (binned_matrix.h), so
// 65535; XGBoost's own limit is 2^24 - 1.
inline constexpr std::int64_t kMaxCategory = 65535;

// Checks that every value of every categorical feature in `dm` is a category (an integer in
// [0, kMaxCategory]) and replaces those features' cuts by one bin per category. A collective
// (every rank calls it; one Allreduce): a bad value on any rank fails every rank, the rank
// that holds it naming the row, feature and value, so no rank is left waiting.
Status SetCategoricalCuts(const data::DMatrix& dm, const TreeParam& param, rabit::Comm& comm,
                          HistogramCuts* cuts);

}  // namespace treering::booster
