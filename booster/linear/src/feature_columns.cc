#include "booster/linear/feature_columns.h"

#include <algorithm>
#include <cmath>

#include "base/parallel_for.h"

namespace treering::booster::linear {

// Counting sort by feature: counts, offsets, then entries placed in row order. The placing pass
// is sequential: it writes each column in row order, which the sums' order depends on. Missing
// values (NaN) are no entries, as in XGBoost's DMatrix.
FeatureColumns FeatureColumns::Transpose(const data::DMatrix& dm, std::uint64_t num_feature,
                                         int nthread) {
  (void)nthread;
  FeatureColumns out;
  out.num_rows = dm.NumRows();
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

void AddFeatureTerms(const FeatureColumns& columns, const std::vector<float>& weights, int groups,
                     int nthread, std::vector<float>* margins) {
  constexpr std::size_t kRowBlock = 8192;
  const std::size_t rows = columns.num_rows;
  const std::size_t ng = static_cast<std::size_t>(groups);
  float* out = margins->data();
  ParallelFor((rows + kRowBlock - 1) / kRowBlock, nthread, [&](std::size_t b) {
    const std::size_t lo = b * kRowBlock, hi = std::min(rows, lo + kRowBlock);
    for (std::uint64_t f = 0; f < columns.NumFeatures(); ++f) {
      const float* value = columns.value.data() + columns.Begin(f);
      const float* w = weights.data() + f * ng;
      if (columns.IsDense(f) && ng == 1) {
        const float wf = w[0];
        for (std::size_t r = lo; r < hi; ++r) out[r] += value[r] * wf;
        continue;
      }
      const std::uint32_t* row = columns.row.data() + columns.Begin(f);
      const std::size_t n = columns.End(f) - columns.Begin(f);
      std::size_t j = columns.IsDense(f) ? lo : std::lower_bound(row, row + n, lo) - row;
      for (; j < n && row[j] < hi; ++j) {
        for (std::size_t g = 0; g < ng; ++g) out[row[j] * ng + g] += value[j] * w[g];
      }
    }
  });
}

}  // namespace treering::booster::linear
