// Prediction on raw rows: walks trees (go left iff value < split_cond, missing -> default
// direction) and adds leaf values to margins. Parallel over rows; each row's sum is taken in
// tree order, so results do not depend on the thread count.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "booster/tree_model.h"
#include "data/dmatrix.h"

namespace treering::booster {

// Adds the outputs of trees [tree_begin, tree_end) to `margins` (NumGroups() values per row,
// row-major, already sized and holding the starting margins), each multiplied by its weight:
// tree_weights[t] if given (DART's training margins pass 0 for a dropped tree), else the model's
// weight_drop for a dart model, else 1. A tree beyond the weights counts with weight 1.
void AddTreeOutputs(const GBTreeModel& model, const data::DMatrix& dm, int tree_begin, int tree_end,
                    int nthread, std::vector<float>* margins,
                    const std::vector<float>* tree_weights = nullptr);

// Rows of a dense matrix predicted where they are (inplace prediction: no copy into a
// DMatrix). Row r's feature f is missing when NaN; every row has `cols` features.
struct DenseRows {
  std::uint64_t rows = 0;
  std::size_t cols = 0;
  // Row-major float32 rows (row r at direct + r * cols) whose only missing value is NaN: read
  // in place. Null: rows are converted through `fill`.
  const float* direct = nullptr;
  // Writes rows [first, first + count) row-major into `out` (count x cols floats), NaN for
  // every missing value; called from several threads at once for disjoint rows.
  std::function<void(std::uint64_t first, std::uint64_t count, float* out)> fill;
};

// AddTreeOutputs on dense rows (the model's own tree weights, as for a DMatrix without
// tree_weights): the same leaves, summed in the same order, as the rows copied into a
// DMatrix without their missing values would get, bit for bit.
void AddTreeOutputs(const GBTreeModel& model, const DenseRows& dense, int tree_begin, int tree_end,
                    int nthread, std::vector<float>* margins);

// The leaf a dense feature vector (NaN = missing) reaches in `tree`.
int LeafOf(const RegTree& tree, const std::vector<float>& features);

}  // namespace treering::booster
