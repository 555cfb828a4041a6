// GBTreeLearner::Params and ::Create: parameter tables -> typed params -> GBTreeLearner.
#include <algorithm>

#include "booster/gbtree_learner.h"

namespace treering::booster {
namespace {

template <typename P>
void AppendDocs(const std::vector<ParamField<P>>& fields, std::vector<ParamDoc>* docs) {
  for (const auto& f : fields) {
    docs->push_back({f.key, f.default_value, f.doc});
    if (f.alias[0] != '\0') {
      docs->push_back({f.alias, f.default_value, std::string("alias of ") + f.key});
    }
  }
}

template <typename P>
bool TryApply(const std::vector<ParamField<P>>& fields, const std::string& key,
              const std::string& value, P* params, Status* status) {
  const ParamField<P>* field = nullptr;
  if (!FindField(fields, key, &field)) return false;
  *status = field->set(params, value);
  return true;
}

}  // namespace

const std::vector<ParamDoc>& GBTreeLearner::Params() {
  static const std::vector<ParamDoc> kDocs = [] {
    std::vector<ParamDoc> docs;
    AppendDocs(LearnerParam::Fields(), &docs);
    AppendDocs(TreeParam::Fields(), &docs);
    return docs;
  }();
  return kDocs;
}

Result<std::unique_ptr<GBTreeLearner>> GBTreeLearner::Create(
    const std::vector<std::pair<std::string, std::string>>& params, rabit::Comm* comm) {
  LearnerParam lparam;
  TreeParam tparam;
  for (const auto& [key, value] : params) {
    Status s;
    if (!TryApply(LearnerParam::Fields(), key, value, &lparam, &s) &&
        !TryApply(TreeParam::Fields(), key, value, &tparam, &s)) {
      return Status::InvalidInput("unknown parameter '" + key + "'");
    }
    if (!s.ok()) return s;
  }
  if (Status s = lparam.Validate(); !s.ok()) return s;
  if (Status s = tparam.Validate(); !s.ok()) return s;
  // XGBoost 1.7 (learner.cc): count:poisson raises the tree's max_delta_step default to 0.7.
  if (lparam.objective == "count:poisson" && !tparam.max_delta_step_set) {
    tparam.max_delta_step = 0.7f;
  }
  ObjectiveConfig oc{lparam.objective, lparam.num_class, lparam.scale_pos_weight,
                     tparam.max_delta_step};
  auto objective = Objective::Create(oc);
  if (!objective.ok()) return objective.status();
  if (auto margin = objective.value()->ProbToMargin(lparam.base_score); !margin.ok()) {
    return Status::InvalidInput("parameter " + margin.status().message());
  }
  for (const auto& name : lparam.eval_metrics) {
    if (auto m = Metric::Create(name); !m.ok()) return m.status();
  }
  return std::make_unique<GBTreeLearner>(std::move(lparam), tparam,
                                         std::move(objective).value(), comm);
}

}  // namespace treering::booster
