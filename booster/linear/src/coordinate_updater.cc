#include "booster/linear/coordinate_updater.h"

namespace treering::booster::linear {

CoordinateUpdater::CoordinateUpdater(const LinearParam& param, std::mt19937* rng)
    : param_(param), selector_(FeatureSelector::Create(param.feature_selector, rng)) {}

void CoordinateUpdater::UpdateFeature(const GradientStats& stats, std::size_t f, int g,
                                      std::size_t groups, std::vector<GradientPair>* gpair,
                                      std::vector<float>* weights, PendingStep* pending) const {
  float& w = (*weights)[f * groups + g];
  const GradSums s = stats.ApplyThenSum(pending->feature, pending->dw, f, g, gpair);
  const auto dw = static_cast<float>(param_.learning_rate *
                                     CoordinateDelta(s.grad, s.hess, w, alpha_, lambda_));
  w += dw;
  *pending = PendingStep{f, dw};  // dw 0: nothing to apply
}

void CoordinateUpdater::Flush(const GradientStats& stats, int g, std::vector<GradientPair>* gpair,
                              PendingStep* pending) {
  stats.ApplyFeature(pending->feature, g, pending->dw, gpair);
  *pending = PendingStep{};
}

void CoordinateUpdater::Update(const GradientStats& stats, double sum_weight,
                               std::size_t num_feature, int groups,
                               std::vector<GradientPair>* gpair, std::vector<float>* weights) {
  // LinearTrainParam::DenormalizePenalties: float = float * double.
  lambda_ = static_cast<float>(param_.reg_lambda * sum_weight);
  alpha_ = static_cast<float>(param_.reg_alpha * sum_weight);
  const std::size_t ng = static_cast<std::size_t>(groups);
  for (int g = 0; g < groups; ++g) {
    const GradSums s = stats.Bias(g, *gpair);
    const auto dbias =
        static_cast<float>(param_.learning_rate * CoordinateDeltaBias(s.grad, s.hess));
    (*weights)[num_feature * ng + g] += dbias;
    stats.ApplyBias(g, dbias, gpair);
  }
  if (num_feature == 0) return;
  const SelectorInput in{
      weights, num_feature, groups,  gpair,
      &stats,  alpha_,      lambda_, param_.updater == "shotgun" ? 0 : param_.top_k};
  selector_->Setup(in);
  std::vector<PendingStep> pending(ng);
  if (param_.updater == "shotgun") {  // feature-major: each feature's groups in turn
    for (std::size_t i = 0; i < num_feature; ++i) {
      const int f = selector_->Next(static_cast<int>(i), 0, in);
      if (f < 0) continue;
      for (int g = 0; g < groups; ++g) UpdateFeature(stats, f, g, ng, gpair, weights, &pending[g]);
    }
    for (int g = 0; g < groups; ++g) Flush(stats, g, gpair, &pending[g]);
    return;
  }
  // Greedy picks each feature from fresh sums: the residuals must be up to date first.
  const bool reads_residuals = param_.feature_selector == FeatureSelection::kGreedy;
  for (int g = 0; g < groups; ++g) {
    for (std::size_t i = 0; i < num_feature; ++i) {
      if (reads_residuals) Flush(stats, g, gpair, &pending[g]);
      const int f = selector_->Next(static_cast<int>(i), g, in);
      if (f < 0) break;
      UpdateFeature(stats, f, g, ng, gpair, weights, &pending[g]);
    }
    Flush(stats, g, gpair, &pending[g]);
  }
}

}  // namespace treering::booster::linear
