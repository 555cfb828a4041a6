#include "booster/predictor.h"

#include <cmath>
#include <limits>

#include "data/parallel_for.h"
#include "booster/work_split.h"

namespace treering::booster {

int LeafOf(const RegTree& tree, const std::vector<float>& features) {
  int node = 0;
  while (!tree.IsLeaf(node)) {
    const std::uint32_t f = tree.split_index[node];
    const float v = f < features.size() ? features[f] : std::numeric_limits<float>::quiet_NaN();
    if (std::isnan(v)) {
      node = tree.default_left[node] ? tree.left[node] : tree.right[node];
    } else {
      node = v < tree.split_cond[node] ? tree.left[node] : tree.right[node];
    }
  }
  return node;
}

void AddTreeOutputs(const GBTreeModel& model, const data::DMatrix& dm, int tree_begin,
                    int tree_end, int nthread, std::vector<float>* margins) {
  if (tree_begin >= tree_end) return;
  const int groups = model.NumGroups();
  const std::size_t width = std::max<std::size_t>(model.num_feature, dm.num_col);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  ParallelForBlocks(static_cast<std::int64_t>(dm.NumRows()),
                    ThreadsFor(dm.NumRows() * std::size_t(tree_end - tree_begin), nthread),
                    [&](int, std::int64_t begin, std::int64_t end) {
    std::vector<float> features(width, nan);
    for (std::int64_t row = begin; row < end; ++row) {
      for (std::uint64_t j = dm.row_ptr[row]; j < dm.row_ptr[row + 1]; ++j) {
        features[dm.index[j]] = dm.value[j];
      }
      float* out = margins->data() + row * groups;
      for (int t = tree_begin; t < tree_end; ++t) {
        const RegTree& tree = model.trees[t];
        out[model.tree_info[t]] += tree.split_cond[LeafOf(tree, features)];
      }
      for (std::uint64_t j = dm.row_ptr[row]; j < dm.row_ptr[row + 1]; ++j) {
        features[dm.index[j]] = nan;
      }
    }
  });
}

}  // namespace treering::booster
