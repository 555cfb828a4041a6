// One CSR row spread over a dense vector (NaN = missing), as XGBoost's RegTree::FVec: the
// explanation walks (leaf indices, TreeSHAP) read features by index many times per row, so a
// thread fills one vector per row and clears only the entries it set.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "booster/tree_model.h"
#include "data/dmatrix.h"

namespace treering::booster {

class DenseRow {
 public:
  // Features at or beyond `width` are dropped (no tree of a checked model splits on them).
  explicit DenseRow(std::size_t width) : values_(width, std::numeric_limits<float>::quiet_NaN()) {}

  void Fill(const data::DMatrix& dm, std::size_t row) {
    for (std::uint64_t j = dm.row_ptr[row]; j < dm.row_ptr[row + 1]; ++j) {
      if (dm.index[j] < values_.size()) values_[dm.index[j]] = dm.value[j];
    }
  }
  void Drop(const data::DMatrix& dm, std::size_t row) {
    for (std::uint64_t j = dm.row_ptr[row]; j < dm.row_ptr[row + 1]; ++j) {
      if (dm.index[j] < values_.size())
        values_[dm.index[j]] = std::numeric_limits<float>::quiet_NaN();
    }
  }
  const float* Values() const { return values_.data(); }

 private:
  std::vector<float> values_;
};

// The child a row takes at internal node `node` (XGBoost's GetNextNode: missing or NaN takes the
// default direction, otherwise left iff value < split_cond, or for a categorical node iff the
// category is outside its set).
inline int NextNode(const RegTree& tree, int node, const float* row) {
  const float v = row[tree.split_index[node]];
  if (std::isnan(v)) return tree.default_left[node] ? tree.left[node] : tree.right[node];
  if (!tree.categories.empty()) {
    const auto it = tree.categories.find(node);
    if (it != tree.categories.end()) {
      return CategoryGoesLeft(it->second, v) ? tree.left[node] : tree.right[node];
    }
  }
  return v < tree.split_cond[node] ? tree.left[node] : tree.right[node];
}

}  // namespace treering::booster
