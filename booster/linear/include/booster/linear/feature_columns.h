// FeatureColumns: the training matrix by feature (XGBoost's CSCPage): for each feature, the rows
// that have a value for it, ascending, and the values. Coordinate descent reads one feature at a
// time, so the CSR matrix is transposed once, when training data is set.
#pragma once

#include <cstdint>
#include <vector>

#include "data/dmatrix.h"

namespace treering::booster::linear {

struct FeatureColumns {
  std::vector<std::uint64_t> col_ptr{0};  // num_feature + 1 offsets into row / value
  std::vector<std::uint32_t> row;
  std::vector<float> value;
  std::size_t num_rows = 0;

  // Features at or beyond dm.num_col get empty columns (a model may have more features than a
  // shard holds). Entries keep the matrix's row order within a column.
  static FeatureColumns Transpose(const data::DMatrix& dm, std::uint64_t num_feature, int nthread);
  std::uint64_t NumFeatures() const { return col_ptr.size() - 1; }
  std::uint64_t Begin(std::uint64_t f) const { return col_ptr[f]; }
  std::uint64_t End(std::uint64_t f) const { return col_ptr[f + 1]; }
  // Every row has the feature: its entries are rows 0, 1, ..., num_rows - 1 in order, so loops
  // may index rows directly (dense data: no gather, and the compiler vectorises the updates).
  bool IsDense(std::uint64_t f) const { return End(f) - Begin(f) == num_rows; }
};

// margins[r * groups + g] += x_rf * weights[f * groups + g] for every feature f of every row, in
// feature order: XGBoost's per-row sum (psum += x * w over the row's entries), so the result is
// the same float, while the rows of a feature are independent and the loop vectorises. Rows are
// taken in fixed blocks, one thread per block.
void AddFeatureTerms(const FeatureColumns& columns, const std::vector<float>& weights, int groups,
                     int nthread, std::vector<float>* margins);

}  // namespace treering::booster::linear
