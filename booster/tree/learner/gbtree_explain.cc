// GBTreeLearner's explanations: pred_leaf, pred_contribs, pred_interactions and feature
// importance, over the algorithms of leaf_index.h, tree_shap.h and feature_importance.h.
#include <string>
#include <vector>

#include "booster/tree/learner/gbtree_learner.h"
#include "booster/tree/predict/feature_importance.h"
#include "booster/tree/predict/leaf_index.h"
#include "booster/tree/predict/tree_shap.h"

namespace treering::booster {

// XGBoost 1.7 explains rounds [0, end) only (gbtree.h: "Only prediction from 0 is supported").
Status GBTreeLearner::Explain(const data::DMatrix& dm, const PredictOptions& options, int end,
                              std::vector<float>* out) const {
  if (options.iteration_begin != 0) {
    return Status::InvalidInput(
        "config: iteration_begin = " + std::to_string(options.iteration_begin) +
        ": pred_leaf / pred_contribs / pred_interactions use rounds from 0 (as XGBoost)");
  }
  const int tree_end = end * model_.TreesPerRound();
  if (options.output == PredictOutput::kLeaf) {
    PredictLeafIndices(model_, dm, tree_end, ctx_.Threads(), out);
    return Status::Ok();
  }
  const ShapRequest request{tree_end, options.approx_contribs, base_margin_, ctx_.Threads()};
  if (options.output == PredictOutput::kContribs) {
    return PredictContributions(model_, dm, request, out);
  }
  return PredictInteractions(model_, dm, request, out);
}

Result<std::vector<FeatureScore>> GBTreeLearner::FeatureImportance(const std::string& type) const {
  return ComputeFeatureImportance(model_, type);
}

}  // namespace treering::booster
