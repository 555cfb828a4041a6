// The order in which a round visits the features (XGBoost 1.7's FeatureSelector,
// src/linear/coordinate_common.h): cyclic, shuffle (a fresh permutation each round), random
// (with replacement), greedy (the largest step next, from fresh sums each time) and thrifty (one
// sort by step size per round). Shuffle and random draw from the learner's seeded std::mt19937,
// as XGBoost draws from its global one.
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "booster/linear/gradient_stats.h"
#include "booster/linear/linear_param.h"

namespace treering::booster::linear {

// What a selector may look at: the weights (feature-major, the biases last) and the sums.
struct SelectorInput {
  const std::vector<float>* weights;
  std::size_t num_feature;
  int groups;
  const std::vector<GradientPair>* gpair;
  const GradientStats* stats;
  float alpha, lambda;  // the penalties times the instance weight sum
  int top_k;            // 0: every feature
};

class FeatureSelector {
 public:
  static std::unique_ptr<FeatureSelector> Create(FeatureSelection choice, std::mt19937* rng);
  virtual ~FeatureSelector() = default;
  // Once per round, after the biases moved.
  virtual void Setup(const SelectorInput& in) { (void)in; }
  // The feature to update at step `iteration` of `group`'s pass, or -1 to end the pass.
  virtual int Next(int iteration, int group, const SelectorInput& in) = 0;
};

}  // namespace treering::booster::linear
