// ColumnSampler: colsample_bytree / bylevel / bynode as nested random feature subsets
// (XGBoost's ColumnSampler scheme: n = max(1, int(fraction * parent size)), sorted ids).
// Deterministic from the seed, which the learner takes from rank 0 so every rank agrees.
#pragma once

#include <cstdint>
#include <map>
#include <random>
#include <utility>
#include <vector>

namespace treering::booster {

class ColumnSampler {
 public:
  ColumnSampler(std::uint32_t num_features, float bytree, float bylevel, float bynode,
                std::uint64_t seed);
  // XGBoost's feature_weights: each colsample_by* draw picks features with probability
  // proportional to their weight, without replacement (weight 0: never, while others remain).
  // Empty: uniform draws (the stream of draws is then unchanged).
  void SetFeatureWeights(std::vector<float> weights) { weights_ = std::move(weights); }
  // Restarts the random stream as a function of (seed, tree_index) alone, so a tree's
  // feature sets do not depend on how many trees this process grew before (training resumed
  // from a snapshot draws what the uninterrupted run drew).
  void Reseed(std::uint64_t tree_index);
  // Draws the tree's feature set; forget the per-level sets of the previous tree.
  void NewTree();
  // Features a node at `depth` may split on (draws the level's set on first use).
  std::vector<std::uint32_t> NodeFeatures(int depth);

 private:
  std::vector<std::uint32_t> Sample(const std::vector<std::uint32_t>& from, float fraction);
  std::vector<std::uint32_t> WeightedSample(const std::vector<std::uint32_t>& from, std::size_t n);

  std::uint32_t num_features_;
  float bytree_, bylevel_, bynode_;
  std::uint64_t seed_;
  std::mt19937_64 rng_;
  std::vector<float> weights_;  // per feature; empty = uniform
  std::vector<std::uint32_t> tree_set_;
  std::map<int, std::vector<std::uint32_t>> level_sets_;
};

}  // namespace treering::booster
