// GBTreeLearner's several outputs per row beyond multi-class: XGBoost 1.7's multi-target
// regression (labels as columns, one tree per target per round) and reg:quantileerror's one
// output per alpha.
#include "booster/tree/learner/gbtree_learner.h"

namespace treering::booster {
namespace {

LabelView TargetLabels(const data::DMatrix& dm) {
  LabelView view{&dm.label, &dm.weight, &dm.group_ptr, 0};
  view.label_columns = dm.label_columns;
  view.lower_bound = &dm.label_lower_bound;  // survival:aft and its metrics
  view.upper_bound = &dm.label_upper_bound;
  return view;
}

}  // namespace

// Several label columns: XGBoost 1.7's metrics average over every element, each weighing its
// row's weight.
Result<double> GBTreeLearner::Score(const Metric& metric, const std::vector<float>& preds,
                                    const data::DMatrix& dm) const {
  if (dm.label_columns <= 1) {
    return metric.Evaluate(preds, objective_->NumGroups(), TargetLabels(dm), ctx_, *comm_);
  }
  std::vector<float> weights;
  return metric.Evaluate(preds, 1, ElementLabels(TargetLabels(dm), &weights), ctx_, *comm_);
}

std::size_t GBTreeLearner::LabelColumns() const {
  if (model_.num_class > 1 || !objective_->InterceptQuantiles().empty()) return 1;
  return static_cast<std::size_t>(objective_->NumGroups());
}

// XGBoost 1.7's ConfigureTargets: the training labels' columns become num_target (one tree per
// target per round) unless the model already has trees for another count.
Status GBTreeLearner::AdoptTargets(const data::DMatrix& train) {
  const std::size_t columns = train.label_columns;
  if (train.label.empty() || columns == LabelColumns()) return Status::Ok();
  if (!objective_->InterceptQuantiles().empty()) return Status::Ok();  // CheckData refuses
  if (model_.num_class > 1) {
    return Status::InvalidKey("num_class", "training data: labels have " + std::to_string(columns) +
                                               " columns: multi-class multi-output is not "
                                               "supported (as XGBoost)");
  }
  if (!model_.trees.empty() || objective_->NumGroups() != 1) return Status::Ok();  // CheckData
  const int targets = static_cast<int>(columns);
  if (Status s = CheckTargets(*objective_, targets); !s.ok()) {
    return s.WithContext("training data");
  }
  objective_ = WithTargets(std::move(objective_), targets).value();
  model_.num_target = static_cast<int>(columns);
  return Status::Ok();
}

}  // namespace treering::booster
