#include "booster/tree/predict/feature_importance.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace treering::booster {

Result<std::vector<FeatureScore>> ComputeFeatureImportance(const GBTreeModel& model,
                                                           const std::string& type) {
  const bool by_gain = type == "gain" || type == "total_gain";
  const bool by_cover = type == "cover" || type == "total_cover";
  if (type != "weight" && !by_gain && !by_cover) {
    return Status::InvalidInput("importance_type = " + type +
                                ": expected weight, gain, cover, total_gain or total_cover");
  }
  // Sized by the splits themselves too, so a model without num_feature still counts.
  std::size_t width = model.num_feature;
  for (const RegTree& tree : model.trees) {
    for (int n = 0; n < tree.NumNodes(); ++n) {
      if (!tree.IsLeaf(n)) width = std::max<std::size_t>(width, tree.split_index[n] + 1);
    }
  }
  std::vector<std::size_t> counts(width, 0);
  std::vector<float> sums(width, 0.0f);
  for (const RegTree& tree : model.trees) {
    // XGBoost's WalkTree order (a stack: left pushed first, so the right subtree comes first);
    // the float sums follow it.
    std::vector<int> stack;
    if (tree.NumNodes() > 0) stack.push_back(0);
    while (!stack.empty()) {
      const int n = stack.back();
      stack.pop_back();
      if (tree.IsLeaf(n)) continue;
      const std::uint32_t f = tree.split_index[n];
      ++counts[f];
      if (by_gain) sums[f] += tree.loss_change[n];
      if (by_cover) sums[f] += tree.sum_hess[n];
      stack.push_back(tree.left[n]);
      stack.push_back(tree.right[n]);
    }
  }
  std::vector<FeatureScore> scores;
  for (std::size_t f = 0; f < width; ++f) {
    if (counts[f] == 0) continue;
    float score = by_gain || by_cover ? sums[f] : static_cast<float>(counts[f]);
    if (type == "gain" || type == "cover") score /= std::max(1.0f, static_cast<float>(counts[f]));
    scores.push_back({static_cast<std::uint32_t>(f), score});
  }
  return scores;
}

}  // namespace treering::booster
