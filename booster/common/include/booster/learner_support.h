// What the learners built on the XGBoost model file (GBTreeLearner, LinearLearner) share: the
// per-row side data checks of a matrix and the model info the C API reads and sets.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "booster/learner.h"
#include "booster/learner_param.h"
#include "booster/metric.h"
#include "booster/objective.h"
#include "booster/tree_model.h"
#include "data/dmatrix.h"

namespace treering::booster {

// Weights and label bounds one per row (or none) and base_margin rows x `groups` (or none);
// errors start with `what` (the set's name).
Status CheckRowInfo(const data::DMatrix& dm, int groups, const std::string& what);

// The matrix's labels, weights, groups and label bounds as the objectives and metrics read them;
// `iteration` seeds the objectives that sample (ranking pairs).
LabelView LabelsOf(const data::DMatrix& dm, int iteration = 0);

// The objective parameters XGBoost keeps in its JSON param block (pseudo_huber_param,
// tweedie_regression_param, aft_loss_param, ...), as strings the way it writes them.
std::map<std::string, std::string> ObjectiveParamsOf(const LearnerParam& p);

// The objective's configuration from the learner's parameters; `max_delta_step` is the tree
// booster's (gblinear passes XGBoost's fixed 0.7, which only count:poisson reads).
ObjectiveConfig ObjectiveConfigOf(const LearnerParam& p, float max_delta_step);

// Lays the objective parameters a model file carries (ObjectiveParamsOf's) over `oc`; a value
// that is not a number is an error naming the parameter.
Status ReadObjectiveParams(const std::map<std::string, std::string>& params, ObjectiveConfig* oc);

// The metrics of `eval_metric`, or the objective's default one when none is named (unless
// disable_default_eval_metric), configured as XGBoost 1.7 configures them. Errors carry the key
// eval_metric.
Result<std::vector<std::unique_ptr<Metric>>> CreateMetrics(const LearnerParam& lparam,
                                                           const Objective& objective);

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
