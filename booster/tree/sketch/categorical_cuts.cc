#include "booster/tree/sketch/categorical_cuts.h"

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

namespace treering::booster {
namespace {

// "" when v is a category, else why not.
const char* CategoryError(float v) {
  if (std::isnan(v)) return "NaN";
  if (v < 0.0f) return "negative";
  if (v != std::floor(v)) return "not an integer";
  if (v >= 16777216.0f) return "not below 2^24 (XGBoost's limit)";
  if (v > static_cast<float>(kMaxCategory)) return "above 65535 (treering's limit: 16-bit bins)";
  return "";
}

// The rebuilt cuts: numerical features keep theirs, categorical feature f gets bins 0..max[f]
// with bin k = [k, k + 1) (upper bounds k + 1, lower bound 0), so SearchBin(k) = k.
HistogramCuts WithCategoryBins(const HistogramCuts& in, const std::vector<std::int64_t>& max_cat,
                               const TreeParam& param) {
  HistogramCuts out;
  out.ptrs.assign(1, 0);
  for (std::uint32_t f = 0; f < in.NumFeatures(); ++f) {
    if (param.IsCategorical(f)) {
      const std::int64_t top = std::max<std::int64_t>(max_cat[f], 0);
      for (std::int64_t k = 0; k <= top; ++k) out.values.push_back(static_cast<float>(k + 1));
      out.min_vals.push_back(0.0f);
    } else {
      out.values.insert(out.values.end(), in.values.begin() + in.ptrs[f],
                        in.values.begin() + in.ptrs[f + 1]);
      out.min_vals.push_back(in.min_vals[f]);
    }
    out.ptrs.push_back(static_cast<std::uint32_t>(out.values.size()));
  }
  return out;
}

}  // namespace

Status SetCategoricalCuts(const data::DMatrix& dm, const TreeParam& param, rabit::Comm& comm,
                          HistogramCuts* cuts) {
  if (!param.HasCategorical()) return Status::Ok();
  const std::uint32_t n = cuts->NumFeatures();
  if (param.feature_types.size() != n) {
    return Status::InvalidKey(
        "feature_types", "parameter feature_types: " + std::to_string(param.feature_types.size()) +
                             " types for " + std::to_string(n) + " features");
  }
  // max[f] per feature, then one slot: 1 if this rank found a bad value.
  std::vector<std::int64_t> max_cat(n + 1, -1);
  std::string error;
  for (std::size_t row = 0; row < dm.NumRows() && error.empty(); ++row) {
    for (std::uint64_t j = dm.row_ptr[row]; j < dm.row_ptr[row + 1]; ++j) {
      const std::uint32_t f = dm.index[j];
      if (!param.IsCategorical(f)) continue;
      const float v = dm.value[j];
      const char* why = CategoryError(v);
      if (*why != '\0') {
        std::ostringstream msg;
        msg << "row " << row << " (0-based, this worker's rows): feature " << f
            << " is categorical (feature_types) but holds " << v << ", which is " << why
            << "; categories are integers in [0, " << kMaxCategory << "]";
        error = msg.str();
        break;
      }
      max_cat[f] = std::max<std::int64_t>(max_cat[f], static_cast<std::int64_t>(v));
    }
  }
  max_cat[n] = error.empty() ? 0 : 1;
  comm.Allreduce<rabit::op::Max>(max_cat.data(), max_cat.size());
  if (!error.empty()) return Status::InvalidInput(error);
  if (max_cat[n] != 0) {
    return Status::InvalidInput("another worker's rows hold an invalid category (see its error)");
  }
  *cuts = WithCategoryBins(*cuts, max_cat, param);
  return Status::Ok();
}

}  // namespace treering::booster
