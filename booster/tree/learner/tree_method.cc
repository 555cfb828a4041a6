// tree_method as XGBoost 1.7 resolves it (src/gbm/gbtree.cc PerformTreeMethodHeuristic and
// ConfigureUpdaters, src/tree/updater_colmaker.cc): auto is exact on one machine below 4M rows
// and approx otherwise; treering grows approx as hist (cuts built once, not per iteration).
// The exact grower has no column sampling, constraints or leaf-wise growth yet: an explicit
// tree_method=exact with one of those is refused (never silently ignored), and auto then grows
// hist trees instead, saying so at verbosity 1.
#include "booster/tree/learner/gbtree_learner.h"
#include "booster/tree/learner/train_memory.h"
#include "data/external_columns.h"

namespace treering::booster {
namespace {

constexpr std::size_t kApproxRows = 4UL << 20UL;  // XGBoost 1.7's "large data" for auto
const char* const kApproxAsHist =
    "; treering has no approx updater and grows hist trees instead (quantile cuts built once, "
    "not per iteration)";

// The first parameter the exact grower cannot honour, or "" when it can grow this config.
std::string ExactUnsupported(const TreeParam& p) {
  if (p.colsample_bytree < 1.0f) return "colsample_bytree";
  if (p.colsample_bylevel < 1.0f) return "colsample_bylevel";
  if (p.colsample_bynode < 1.0f) return "colsample_bynode";
  for (int c : p.monotone_constraints) {
    if (c != 0) return "monotone_constraints";
  }
  if (!p.interaction_constraints.empty()) return "interaction_constraints";
  if (p.grow_policy == GrowPolicy::kLossGuide) return "grow_policy";
  if (p.max_leaves > 0) return "max_leaves";
  if (p.HasCategorical()) return "feature_types";  // XGBoost 1.7's colmaker has none either
  return "";
}

}  // namespace

Result<std::string> GBTreeLearner::ResolveTreeMethod(const data::DMatrix& train) {
  std::string method = tparam_.tree_method;
  gpu_note_ = GpuFallbackWarning(tparam_);
  if (method == "gpu_hist") {  // XGBoost's GPU port of hist: the same algorithm
    method_note_.clear();
    return std::string("hist");
  }
  const bool distributed = comm_->IsDistributed();
  const std::string unsupported = ExactUnsupported(tparam_);
  if (method == "auto" && !objective_->InterceptQuantiles().empty()) {
    // reg:quantileerror is XGBoost 2.x's, whose default tree_method is hist: its leaves are
    // refreshed to quantiles, which the exact grower does not do.
    method_note_.clear();
    return std::string("hist");
  }
  if (method == "auto") {
    if (distributed) {
      method_note_ =
          "Tree method is automatically selected to be 'approx' for distributed training";
      method = "approx";
    } else if (train.external && !train.external->temporary()) {  // XGBoost 1.7's, for pages
      method_note_ =
          "Tree method is automatically set to 'approx' since external-memory data matrix is "
          "used.";
      method = "approx";
    } else if (train.NumRows() >= kApproxRows) {
      method_note_ =
          "Tree method is automatically selected to be 'approx' for faster speed (4M rows or "
          "more). To use old behavior (exact greedy algorithm on single machine), set "
          "tree_method to 'exact'";
      method = "approx";
    } else if (!unsupported.empty()) {
      method_note_ =
          "tree_method unset (auto): XGBoost 1.7 would grow 'exact' trees here, but "
          "treering's exact grower does not support " +
          unsupported +
          " yet, so hist trees are grown; set tree_method=hist to "
          "silence this line";
      return std::string("hist");
    } else {
      method_note_.clear();  // XGBoost 1.7 says nothing when auto picks exact
      return std::string("exact");
    }
  } else if (method == "approx") {
    method_note_ = "Tree method is set to 'approx'";
  } else {
    method_note_.clear();
  }
  if (method == "approx") {
    method_note_ += kApproxAsHist;
    return std::string("hist");
  }
  if (method == "exact" && distributed) {
    return Status::InvalidKey("tree_method",
                              "parameter tree_method: Updater `grow_colmaker` or `exact` tree "
                              "method doesn't support distributed training.");
  }
  if (method == "exact" && !unsupported.empty()) {
    return Status::InvalidKey(unsupported, "parameter " + unsupported +
                                               ": not supported with tree_method=exact in "
                                               "treering yet; use tree_method=hist");
  }
  return method;
}

bool GBTreeLearner::StreamableTrainLoad() const {
  return StreamableTrain(tparam_, {allow_train_value_drop_, tparam_.tree_method, model_.num_feature,
                                   model_.dart, model_.num_parallel_tree, !model_.trees.empty(),
                                   update_param_.update, objective_->LeafQuantile().has_value()});
}

}  // namespace treering::booster
