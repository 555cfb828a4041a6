// Feature importance of a tree ensemble, as XGBoost 1.7's GBTree::FeatureScore (python's
// Booster.get_score): over every split of every tree, `weight` counts the splits on a feature,
// `total_gain` / `total_cover` add their loss_change / sum_hess, and `gain` / `cover` divide
// those by the count. Sums are taken in float in tree and node order, as XGBoost does.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "booster/learner.h"
#include "booster/tree_model.h"

namespace treering::booster {

// Features split on at least once, by increasing index (get_score's dict order). An unknown
// `type` is kInvalidInput naming the five.
Result<std::vector<FeatureScore>> ComputeFeatureImportance(const GBTreeModel& model,
                                                           const std::string& type);

}  // namespace treering::booster
