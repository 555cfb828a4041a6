// GBTreeLearner::PredictDense: Predict's value and margin outputs for dense rows that stay in
// the caller's memory (the C API's inplace prediction), with Predict's checks and transform.
#include <string>
#include <vector>

#include "booster/tree/learner/gbtree_learner.h"
#include "booster/tree/predict/predictor.h"

namespace treering::booster {

Status GBTreeLearner::PredictDense(const DenseRows& rows, const std::vector<float>& base_margin,
                                   const PredictOptions& options, std::vector<float>* out) const {
  const Result<int> checked_end = IterationEnd(options);
  if (!checked_end.ok()) return checked_end.status();
  const int end = checked_end.value();
  if (options.output != PredictOutput::kValue) {
    return Status::InvalidInput("dense inplace prediction gives values or margins only");
  }
  const std::size_t margins = rows.rows * static_cast<std::size_t>(model_.NumGroups());
  if (!base_margin.empty() && base_margin.size() != margins) {
    return Status::InvalidInput("base_margin has " + std::to_string(base_margin.size()) +
                                " values for " + std::to_string(rows.rows) + " rows x " +
                                std::to_string(model_.NumGroups()) + " output groups");
  }
  // BaseMargins for a matrix of rows.rows rows (the objective's groups, as Predict's).
  const std::size_t n = rows.rows * static_cast<std::size_t>(objective_->NumGroups());
  if (base_margin.size() == n) {
    *out = base_margin;
  } else {
    out->assign(n, base_margin_);
  }
  const int per_round = model_.TreesPerRound();
  AddTreeOutputs(model_, rows, options.iteration_begin * per_round, end * per_round, ctx_.Threads(),
                 out);
  if (!options.output_margin) objective_->PredTransform(out, ctx_);
  return Status::Ok();
}

}  // namespace treering::booster
