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

  // Features at or beyond dm.num_col get empty columns (a model may have more features than a
  // shard holds). Entries keep the matrix's row order within a column.
  static FeatureColumns Transpose(const data::DMatrix& dm, std::uint64_t num_feature, int nthread);
  std::uint64_t NumFeatures() const { return col_ptr.size() - 1; }
  std::uint64_t Begin(std::uint64_t f) const { return col_ptr[f]; }
  std::uint64_t End(std::uint64_t f) const { return col_ptr[f + 1]; }
};

}  // namespace treering::booster::linear
