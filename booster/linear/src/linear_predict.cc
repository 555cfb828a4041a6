// LinearLearner's predictions: values and margins, contributions (w * x and the bias), feature
// importance; leaf indices and interactions are refused, as gblinear has neither.
#include "base/parallel_for.h"
#include "booster/linear/linear_learner.h"
#include "booster/work_split.h"

namespace treering::booster::linear {

// XGBoost 1.7's LinearCheckLayer: a range must start at round 0; its end is ignored (every
// round's steps are summed into one weight vector).
Status LinearLearner::Predict(data::DMatrix* dm, const PredictOptions& options,
                              std::vector<float>* out) const {
  if (options.iteration_begin != 0) {
    return Status::InvalidInput("Linear booster does not support prediction range.");
  }
  const int groups = model_.NumGroups();
  if (!dm->base_margin.empty() &&
      dm->base_margin.size() != dm->NumRows() * static_cast<std::size_t>(groups)) {
    return Status::InvalidInput("base_margin has " + std::to_string(dm->base_margin.size()) +
                                " values for " + std::to_string(dm->NumRows()) + " rows x " +
                                std::to_string(groups) + " output groups");
  }
  switch (options.output) {
    case PredictOutput::kLeaf:
      return Status::InvalidInput("gblinear does not support prediction of leaf index");
    case PredictOutput::kInteractions:
      return Status::InvalidInput("gblinear does not support prediction of feature interactions");
    case PredictOutput::kContribs:
      Contributions(*dm, out);
      return Status::Ok();
    case PredictOutput::kValue:
      break;
  }
  *out = Margins(*dm);
  if (!options.output_margin) objective_->PredTransform(out, ctx_);
  return Status::Ok();
}

// GBLinear::PredictContribution: per row and group, x_f * w_f at the features the row has,
// then bias + (base_margin or base_score's margin).
void LinearLearner::Contributions(const data::DMatrix& dm, std::vector<float>* out) const {
  const int groups = model_.NumGroups();
  const std::size_t nf = model_.num_feature;
  const std::size_t cols = nf + 1;
  const std::size_t rows = dm.NumRows();
  const std::vector<float>& weights = model_.linear_weights;  // empty: an untrained model
  auto w = [&](std::size_t i) { return weights.empty() ? 0.0f : weights[i]; };
  out->assign(rows * groups * cols, 0.0f);
  const bool own_margin = dm.base_margin.size() == rows * groups;
  ParallelFor(rows, ThreadsFor(dm.value.size() + rows, ctx_.Threads()), [&](std::size_t r) {
    for (int g = 0; g < groups; ++g) {
      float* c = out->data() + (r * groups + g) * cols;
      for (std::uint64_t k = dm.row_ptr[r]; k < dm.row_ptr[r + 1]; ++k) {
        if (dm.index[k] >= nf || std::isnan(dm.value[k])) continue;
        c[dm.index[k]] = dm.value[k] * w(std::size_t{dm.index[k]} * groups + g);
      }
      c[cols - 1] =
          w(nf * groups + g) + (own_margin ? dm.base_margin[r * groups + g] : base_margin_);
    }
  });
}

// GBLinear::FeatureScore: every feature's weight (of each group in turn when there are several,
// as XGBoost lists them feature-major), importance type weight only.
Result<std::vector<FeatureScore>> LinearLearner::FeatureImportance(const std::string& type) const {
  if (type != "weight") {
    return Status::InvalidInput("gblinear only has `weight` defined for feature importance.");
  }
  if (model_.linear_weights.empty()) return Status::InvalidInput("Model is not initialized");
  const int groups = model_.NumGroups();
  std::vector<FeatureScore> out;
  for (std::size_t f = 0; f < model_.num_feature; ++f) {
    for (int g = 0; g < groups; ++g) {
      out.push_back({static_cast<std::uint32_t>(f), model_.linear_weights[f * groups + g]});
    }
  }
  return out;
}

}  // namespace treering::booster::linear
