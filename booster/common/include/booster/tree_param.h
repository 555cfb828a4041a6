// TreeParam: the parameters of one hist tree (XGBoost 1.7 `TrainParam` names and defaults).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/param_table.h"

namespace treering::booster {

enum class GrowPolicy { kDepthWise, kLossGuide };
// How distributed ranks combine their histograms (LightGBM's tree_learner names): kData
// reduce-scatters them by feature owner, kAllreduce gives every rank the whole sum, kVoting
// (PV-Tree) sums only the features the ranks voted for (booster/tree/src/voting_*.h).
enum class TreeLearner { kData, kAllreduce, kVoting };

struct TreeParam {
  float eta = 0.3f;             // learning_rate
  float min_split_loss = 0.0f;  // gamma
  int max_depth = 6;
  int max_leaves = 0;
  float min_child_weight = 1.0f;
  // LightGBM's min_data_in_leaf (not an XGBoost key; 0 = off): a child must hold this many
  // rows, estimated from its hessian as H_child * node_rows / H_node (LightGBM 4.x's count).
  int min_data_in_leaf = 0;
  float max_delta_step = 0.0f;
  bool max_delta_step_set = false;  // count:poisson raises the default to 0.7 unless set
  float subsample = 1.0f;
  // XGBoost's num_parallel_tree: trees grown per class per round from the same gradients, each
  // with its own row and column samples (random forests; GBTreeModel::num_parallel_tree).
  int num_parallel_tree = 1;
  bool num_parallel_tree_set = false;  // a model's own count is taken unless this was given
  float colsample_bytree = 1.0f;
  float colsample_bylevel = 1.0f;
  float colsample_bynode = 1.0f;
  float reg_lambda = 1.0f;  // lambda
  float reg_alpha = 0.0f;   // alpha
  int max_bin = 256;
  int max_memory = 0;  // MiB: external memory's resident cap (docs/data.md), 0 = none
  GrowPolicy grow_policy = GrowPolicy::kDepthWise;
  // monotone_constraints "(1,0,-1)": per feature +1 increasing, -1 decreasing, 0 free;
  // features past the list are free (XGBoost's TreeEvaluator).
  std::vector<int> monotone_constraints;
  // interaction_constraints "[[0,1],[2,3,4]]": a path's features must fit in one group.
  std::vector<std::vector<std::uint32_t>> interaction_constraints;
  // feature_types "q,c,q": one XGBoost type name per feature (q, c, int, float, i); c marks a
  // categorical feature (docs/learner.md, "Categorical features"). Empty: all numerical.
  std::vector<std::string> feature_types;
  // A categorical feature with fewer categories (max category + 1) than this is split one
  // category against the rest; otherwise by a partition of its categories (XGBoost 1.7 hist).
  int max_cat_to_onehot = 4;
  // Partition splits consider at most this many categories from either end of the ordering.
  int max_cat_threshold = 64;
  // XGBoost 1.7's names; the learner resolves auto and approx (docs/learner.md, tree_method).
  std::string tree_method = "auto";
  // XGBoost's GPU words, accepted so published scripts run: treering has no GPU code, so
  // gpu_hist grows hist trees and gpu_id / gpu_predictor change nothing but one warning.
  int gpu_id = -1;
  std::string predictor = "auto";
  TreeLearner tree_learner = TreeLearner::kData;
  // tree_learner=voting: features each rank votes for per node (LightGBM's default).
  int top_k = 20;

  bool IsCategorical(std::uint32_t f) const {
    return f < feature_types.size() && feature_types[f] == "c";
  }
  bool HasCategorical() const {
    for (const std::string& t : feature_types) {
      if (t == "c") return true;
    }
    return false;
  }

  // Every key with its default, range and meaning (base/param_table.h).
  static const ParamTable<TreeParam>& Table();
  // Cross-field check after all keys are applied (e.g. a tree must be bounded somehow).
  Status Validate() const;
};

// The one warning for XGBoost's GPU words in p (tree_method=gpu_hist, gpu_id >= 0,
// predictor=gpu_predictor), naming them and what runs instead; "" when none was used.
std::string GpuFallbackWarning(const TreeParam& p);

}  // namespace treering::booster
