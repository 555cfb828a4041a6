// GBTreeLearner::Params and ::Create: parameter tables -> typed params -> GBTreeLearner.
#include <utility>

#include "booster/learner_support.h"
#include "booster/tree/learner/gbtree_learner.h"

namespace treering::booster {
const std::vector<ParamDoc>& GBTreeLearner::Params() {
  static const std::vector<ParamDoc> kDocs = [] {
    std::vector<ParamDoc> docs = LearnerParam::Table().Docs();
    for (ParamDoc& d : TreeParam::Table().Docs()) docs.push_back(std::move(d));
    for (ParamDoc& d : DartParam::Table().Docs()) docs.push_back(std::move(d));
    for (ParamDoc& d : UpdateParam::Table().Docs()) docs.push_back(std::move(d));
    return docs;
  }();
  return kDocs;
}

Result<std::unique_ptr<GBTreeLearner>> GBTreeLearner::Create(
    const std::vector<std::pair<std::string, std::string>>& params, const Context& ctx,
    rabit::Comm* comm) {
  LearnerParam lparam;
  TreeParam tparam;
  DartParam dart;
  UpdateParam update;
  for (const auto& [key, value] : params) {
    // Errors name the key as given (Status::key()), so the CLI can point at its config line.
    Status s = LearnerParam::Table().Find(key)  ? LearnerParam::Table().Set(&lparam, key, value)
               : DartParam::Table().Find(key)   ? DartParam::Table().Set(&dart, key, value)
               : UpdateParam::Table().Find(key) ? UpdateParam::Table().Set(&update, key, value)
                                                : TreeParam::Table().Set(&tparam, key, value);
    if (!s.ok()) return s;
  }
  // XGBoost ignores tree_method when `updater` names a grower: the grower is the method.
  auto grower = update.Validate();
  if (!grower.ok()) return grower.status();
  if (!grower.value().empty()) tparam.tree_method = grower.value();
  // XGBoost 1.7 (learner.cc, ConfigureObjective): num_class > 1 without an objective means
  // multi:softmax. Python scripts with their own multi-class objective rely on it (the model
  // they save says multi:softmax and predict() gives class indices). Not marked as set, so a
  // loaded model's objective still wins.
  if (!lparam.objective_set && lparam.num_class > 1) lparam.objective = "multi:softmax";
  if (Status s = lparam.Validate(); !s.ok()) return s;
  if (Status s = tparam.Validate(); !s.ok()) return s;
  // XGBoost 1.7 (learner.cc): count:poisson raises the tree's max_delta_step default to 0.7.
  if (lparam.objective == "count:poisson" && !tparam.max_delta_step_set) {
    tparam.max_delta_step = 0.7f;
  }
  auto objective = Objective::Create(ObjectiveConfigOf(lparam, tparam.max_delta_step));
  if (!objective.ok()) return objective.status().WithKey("objective");
  if (lparam.num_target > 1) {
    if (lparam.num_class > 1) {
      return Status::InvalidKey("num_target",
                                "parameter num_target: multi-class multi-output (num_class > 1 "
                                "with num_target > 1) is not supported (as XGBoost)");
    }
    if (objective.value()->NumGroups() == 1) {
      objective = WithTargets(std::move(objective).value(), lparam.num_target);
      if (!objective.ok()) return objective.status().WithKey("num_target");
    } else if (objective.value()->NumGroups() != lparam.num_target) {
      return Status::InvalidKey(
          "num_target", "parameter num_target: " + std::to_string(lparam.num_target) +
                            " disagrees with the " +
                            std::to_string(objective.value()->NumGroups()) + " outputs of " +
                            lparam.objective + " (one per quantile_alpha)");
    }
  }
  if (auto margin = objective.value()->ProbToMargin(lparam.base_score); !margin.ok()) {
    return Status::InvalidKey("base_score", "parameter " + margin.status().message());
  }
  if (auto metrics = CreateMetrics(lparam, *objective.value()); !metrics.ok()) {
    return metrics.status();
  }
  return std::make_unique<GBTreeLearner>(std::move(lparam), tparam, std::move(objective).value(),
                                         ctx, comm, std::move(dart), std::move(update));
}

}  // namespace treering::booster
