// The gradient-boosted tree model as XGBoost 1.7 stores it, so JSON I/O is a straight mapping
// (see docs/model-format.md and shared/reference §6): parallel per-node arrays, node 0 is the
// root, a leaf has left == right == -1 and keeps its value (eta already applied) in split_cond.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace treering::booster {

struct RegTree {
  std::vector<std::int32_t> left;          // -1 for a leaf
  std::vector<std::int32_t> right;         // -1 for a leaf
  std::vector<std::int32_t> parent;        // -1 for the root (JSON writes 2147483647)
  std::vector<std::uint32_t> split_index;  // feature id; 0 for a leaf
  std::vector<float> split_cond;           // internal: go left iff value < split_cond; leaf: value
  std::vector<std::uint8_t> default_left;  // 1: a missing value goes left
  std::vector<float> base_weight;          // node weight w without eta
  std::vector<float> loss_change;          // split gain; 0 for a leaf
  std::vector<float> sum_hess;             // hessian sum (cover)
  // Categorical splits (XGBoost's split_type 1), by node: the categories that go RIGHT,
  // ascending and non-empty. Such a node's split_cond is NaN, as XGBoost 1.7 writes it.
  std::map<int, std::vector<std::int32_t>> categories;

  // XGBoost's prune updater keeps a pruned node's slot (ids of the others do not move) and marks
  // it deleted: split index 2^31-1 with the default-left bit, its sindex_ 0xFFFFFFFF. Such a
  // node is an unreachable leaf; files count it in num_deleted.
  static constexpr std::uint32_t kDeletedSplitIndex = (1u << 31) - 1;

  int NumNodes() const { return static_cast<int>(left.size()); }
  bool IsLeaf(int node) const { return left[node] < 0; }
  bool IsDeleted(int node) const {
    return split_index[node] == kDeletedSplitIndex && default_left[node] != 0;
  }
  int NumDeleted() const {
    int deleted = 0;
    for (int n = 1; n < NumNodes(); ++n) deleted += IsDeleted(n) ? 1 : 0;
    return deleted;
  }
  void MarkDeleted(int node) {
    split_index[node] = kDeletedSplitIndex;
    default_left[node] = 1;
  }
  bool IsCategorical(int node) const { return categories.count(node) != 0; }

  // Appends a node (a leaf until Split is called) and returns its id.
  int AddNode(int parent_id, float leaf_value, float weight, float hess) {
    left.push_back(-1);
    right.push_back(-1);
    parent.push_back(parent_id);
    split_index.push_back(0);
    split_cond.push_back(leaf_value);
    default_left.push_back(0);
    base_weight.push_back(weight);
    loss_change.push_back(0.0f);
    sum_hess.push_back(hess);
    return NumNodes() - 1;
  }
};

// XGBoost 1.7's common::Decision for a present value v at a categorical node whose set is
// `right`: true = go left. A value that is no valid category (negative, >= 2^24) goes left, as
// does any category outside the set; the value is truncated to an integer first (AsCat).
inline bool CategoryGoesLeft(const std::vector<std::int32_t>& right, float v) {
  if (!(v >= 0.0f) || v >= 16777216.0f) return true;
  return !std::binary_search(right.begin(), right.end(), static_cast<std::int32_t>(v));
}

struct GBTreeModel {
  std::string objective = "reg:squarederror";  // XGBoost objective name
  float base_score = 0.5f;  // user-facing value as saved in JSON (a probability for logistic)
  std::uint64_t num_feature = 0;
  int num_class = 0;  // 0 unless multi-class (then K >= 2)
  // XGBoost's learner_model_param.num_target: outputs per row of a multi-target regression
  // (one_output_per_tree: one tree per target per round) or of reg:quantileerror (one per
  // quantile_alpha). 1 otherwise; never > 1 together with num_class > 1 (as XGBoost).
  int num_target = 1;
  float scale_pos_weight = 1.0f;
  std::vector<RegTree> trees;
  std::vector<int> tree_info;                     // output group (class) of each tree, round-major
  std::map<std::string, std::string> attributes;  // e.g. best_iteration, best_score
  // The learner's feature_types ("q", "c", ...; empty unless the model was trained with them).
  std::vector<std::string> feature_types;
  // The learner's feature_names (XGBoosterSetStrFeatureInfo; empty unless a library user set
  // them): kept so that names round-trip through every model format that has a place for them.
  std::vector<std::string> feature_names;
  // XGBoost's learner_model_param.boost_from_average ("1" unless the user set base_score).
  bool boost_from_average = true;
  // The objective's parameter block beyond the typed fields above, kept so a model loaded from
  // XGBoost saves back unchanged, e.g. "poisson_regression_param" {"max_delta_step": "0.7"}.
  // An empty block name means "the block XGBoost 1.7 writes for `objective`" (model_io.h).
  std::string objective_param_block;
  std::map<std::string, std::string> objective_params;
  // Legacy binary files only: the "metrics" attribute XGBoost's CLI writes ("auc;"), kept so
  // such a file saves back unchanged; JSON and UBJSON have no place for it (XGBoost drops it).
  std::string eval_metrics;
  // booster=dart (XGBoost's Dart: "name": "dart" with the gbtree model nested): weight_drop has
  // one factor per tree, by which predictions multiply that tree's output. Empty for gbtree.
  bool dart = false;
  std::vector<float> weight_drop;
  // XGBoost's gbtree_model_param.num_parallel_tree: trees per class per round (a forest when
  // > 1). A round ("layer" in XGBoost) is NumGroups() x num_parallel_tree trees, class-major:
  // class 0's K trees, then class 1's, as XGBoost's BoostNewTrees appends them.
  int num_parallel_tree = 1;

  // booster=gblinear (XGBoost's GBLinear, booster/linear): no trees; linear_weights holds
  // (num_feature + 1) x NumGroups() weights, feature-major (weight of feature f, group g at
  // f * groups + g), the groups' biases last; linear_rounds is gblinear's boosted_rounds (the
  // legacy binary format has no place for it: 0 after such a load, as in XGBoost).
  bool linear = false;
  std::vector<float> linear_weights;
  int linear_rounds = 0;
  int NumGroups() const { return num_class > 1 ? num_class : std::max(num_target, 1); }
  int TreesPerRound() const { return NumGroups() * num_parallel_tree; }
  int NumRounds() const {
    if (linear) return linear_rounds;
    return trees.empty() ? 0 : static_cast<int>(trees.size()) / TreesPerRound();
  }
};

}  // namespace treering::booster
