// What the learners built on the XGBoost model file (GBTreeLearner, LinearLearner) share: the
// per-row side data checks of a matrix and the model info the C API reads and sets.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "booster/learner.h"
#include "booster/tree_model.h"
#include "data/dmatrix.h"

namespace treering::booster {

// Weights one per row (or none) and base_margin rows x `groups` (or none); errors start with
// `what` (the set's name).
Status CheckRowInfo(const data::DMatrix& dm, int groups, const std::string& what);

// A caller's gradients for one round (XGBoosterBoostOneIter): a training matrix set, rows x
// `groups` values each, all finite; errors say which.
Status CheckCustomGradients(const data::DMatrix* train, int groups, const std::vector<float>& grad,
                            const std::vector<float>& hess);

// The model with `attributes` laid over its own (what is saved).
GBTreeModel WithAttributes(const GBTreeModel& model,
                           const std::map<std::string, std::string>& attributes);

// The model's attributes, names and types, with the learner's own attributes (early
// stopping's, not yet in the model) laid over them.
ModelInfo ModelInfoOf(const GBTreeModel& model, const std::map<std::string, std::string>& own);
// Replaces the model's attributes and names, and its types unless `info` has none; the
// learner's own attributes are dropped (`own`), as they are now the model's.
void SetModelInfoOf(const ModelInfo& info, GBTreeModel* model,
                    std::map<std::string, std::string>* own);

}  // namespace treering::booster
