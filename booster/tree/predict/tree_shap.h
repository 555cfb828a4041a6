// SHAP explanations of a tree ensemble, computed as XGBoost 1.7's CPU predictor does so the
// numbers agree with python3-xgboost's predict(pred_contribs / pred_interactions):
// * exact contributions by TreeSHAP (Lundberg et al. 2018, polynomial time: one pass per tree
//   carrying the path's permutation weights), each tree's expected value (its cover-weighted
//   mean leaf) going to the bias column;
// * approximate contributions (Saabas): along the row's path each split's feature gets the
//   change in the node mean;
// * interaction values: the diagonal holds the contributions, off-diagonal (i, k) is half the
//   difference of k's contribution with i conditioned on and off, and the diagonal entry
//   (i, i) is then reduced by the row's off-diagonal sum.
// Float arithmetic follows XGBoost's order. Parallel over rows; the result does not depend on
// the thread count.
#pragma once

#include <vector>

#include "base/status.h"
#include "booster/tree_model.h"
#include "data/dmatrix.h"

namespace treering::booster {

struct ShapRequest {
  int tree_end = 0;          // trees [0, tree_end) in model order
  bool approximate = false;  // Saabas instead of TreeSHAP
  float base_margin = 0.0f;  // added to each class's bias column (XGBoost's base_score margin)
  int nthread = 0;
};

// Row-major rows x groups x (F + 1), F = model.num_feature, the bias column last. A split on a
// feature >= F (only a hand-made model) is kInvalidInput.
Status PredictContributions(const GBTreeModel& model, const data::DMatrix& dm,
                            const ShapRequest& request, std::vector<float>* out);

// Row-major rows x groups x (F + 1) x (F + 1), the bias row and column last.
Status PredictInteractions(const GBTreeModel& model, const data::DMatrix& dm,
                           const ShapRequest& request, std::vector<float>* out);

}  // namespace treering::booster
