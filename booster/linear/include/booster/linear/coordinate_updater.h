// CoordinateUpdater: one round of XGBoost 1.7's linear updaters on the weights, from the round's
// gradients (src/linear/updater_coordinate.cc, updater_shotgun.cc): the biases first (one
// Newton step each), then the features in the selector's order, each step shrunk by
// learning_rate, the gradients updated as residuals after every step.
//
// shotgun: XGBoost runs its features on all threads at once, Hogwild (each thread reads
// residuals the others are writing), so its model depends on the thread count and the timing;
// with one thread it is cyclic coordinate descent. treering runs shotgun's steps one feature at
// a time, in order, parallel over the rows of each feature: XGBoost's one-thread model, whatever
// the thread count (docs/learner.md).
#pragma once

#include <memory>
#include <random>
#include <vector>

#include "booster/linear/feature_selector.h"
#include "booster/linear/gradient_stats.h"
#include "booster/linear/linear_param.h"

namespace treering::booster::linear {

class CoordinateUpdater {
 public:
  CoordinateUpdater(const LinearParam& param, std::mt19937* rng);
  // weights: (num_feature + 1) x groups, feature-major, biases last. gpair: rows x groups, left
  // as the residuals. sum_weight: the instance weight sum (the penalties scale with it).
  void Update(const GradientStats& stats, double sum_weight, std::size_t num_feature, int groups,
              std::vector<GradientPair>* gpair, std::vector<float>* weights);

 private:
  // A step whose residual update is still to be applied: fused with the next feature's sums
  // (GradientStats::ApplyThenSum), one pass over the rows instead of two.
  struct PendingStep {
    std::size_t feature = 0;
    float dw = 0.0f;
  };
  void UpdateFeature(const GradientStats& stats, std::size_t f, int g, std::size_t groups,
                     std::vector<GradientPair>* gpair, std::vector<float>* weights,
                     PendingStep* pending) const;
  static void Flush(const GradientStats& stats, int g, std::vector<GradientPair>* gpair,
                    PendingStep* pending);

  LinearParam param_;
  std::unique_ptr<FeatureSelector> selector_;
  float alpha_ = 0.0f, lambda_ = 0.0f;  // XGBoost's reg_*_denorm (floats)
};

}  // namespace treering::booster::linear
