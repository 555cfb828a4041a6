// tree_method as XGBoost 1.7 resolves it (src/gbm/gbtree.cc PerformTreeMethodHeuristic and
// ConfigureUpdaters, src/tree/updater_colmaker.cc): XGBoost's auto is exact on one machine
// below 4M rows and approx otherwise. treering's auto grows hist trees in both cases, for now:
// exact is built (tree_method=exact gives XGBoost's exact trees) but making it the default
// changes every config that leaves tree_method unset, so it waits for the suite and benchmark
// configs to name their method. The difference is said at verbosity 1, never silent.
#include "booster/gbtree_learner.h"

namespace treering::booster {
namespace {

constexpr std::size_t kApproxRows = 4UL << 20UL;  // XGBoost 1.7's "large data" for auto
const char* const kApproxAsHist =
    "; treering has no approx updater and grows hist trees instead (quantile cuts built once, "
    "not per iteration)";

}  // namespace

Result<std::string> GBTreeLearner::ResolveTreeMethod(const data::DMatrix& train) {
  std::string method = tparam_.tree_method;
  const bool distributed = comm_->IsDistributed();
  if (method == "auto") {
    if (distributed) {
      method_note_ =
          "Tree method is automatically selected to be 'approx' for distributed training";
      method = "approx";
    } else if (train.NumRows() >= kApproxRows) {
      method_note_ =
          "Tree method is automatically selected to be 'approx' for faster speed (4M rows or "
          "more). To use old behavior (exact greedy algorithm on single machine), set "
          "tree_method to 'exact'";
      method = "approx";
    } else {
      method_note_ =
          "tree_method unset (auto): treering grows hist trees, where XGBoost 1.7 would pick "
          "'exact' (one machine, fewer than 4M rows); set tree_method=exact for XGBoost's exact "
          "trees, tree_method=hist to silence this line";
      return std::string("hist");
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
  if (method == "exact" && tparam_.HasCategorical()) {  // as XGBoost 1.7's colmaker
    return Status::InvalidKey("tree_method",
                              "parameter tree_method: exact does not support categorical "
                              "features (feature_types c); use tree_method=hist");
  }
  return method;
}

}  // namespace treering::booster
