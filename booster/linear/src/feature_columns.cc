#include "booster/linear/feature_columns.h"

#include <cmath>

namespace treering::booster::linear {

// Counting sort by feature: counts, offsets, then entries placed in row order. The placing pass
// is sequential: it writes each column in row order, which the sums' order depends on. Missing
// values (NaN) are no entries, as in XGBoost's DMatrix.
FeatureColumns FeatureColumns::Transpose(const data::DMatrix& dm, std::uint64_t num_feature,
                                         int nthread) {
  (void)nthread;
  FeatureColumns out;
  out.col_ptr.assign(num_feature + 1, 0);
  for (std::size_t k = 0; k < dm.index.size(); ++k) {
    if (dm.index[k] < num_feature && !std::isnan(dm.value[k])) ++out.col_ptr[dm.index[k] + 1];
  }
  for (std::uint64_t f = 0; f < num_feature; ++f) out.col_ptr[f + 1] += out.col_ptr[f];
  out.row.resize(out.col_ptr[num_feature]);
  out.value.resize(out.col_ptr[num_feature]);
  std::vector<std::uint64_t> next(out.col_ptr.begin(), out.col_ptr.end() - 1);
  const std::size_t rows = dm.NumRows();
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::uint64_t k = dm.row_ptr[r]; k < dm.row_ptr[r + 1]; ++k) {
      const std::uint32_t f = dm.index[k];
      if (f >= num_feature || std::isnan(dm.value[k])) continue;
      const std::uint64_t at = next[f]++;
      out.row[at] = static_cast<std::uint32_t>(r);
      out.value[at] = dm.value[k];
    }
  }
  return out;
}

}  // namespace treering::booster::linear
