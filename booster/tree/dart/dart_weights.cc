#include "booster/tree/dart/dart_weights.h"

namespace treering::booster {

// mt19937::seed keeps the seed modulo 2^32, as XGBoost's GlobalRandom().seed(ctx_.seed) does.
DartDropout::DartDropout(const DartParam& param, std::uint64_t seed)
    : param_(param), rng_(static_cast<std::mt19937::result_type>(seed)) {}

// The arithmetic keeps XGBoost's types (float products, double draws): the comparisons decide
// drops, so they must round as XGBoost's do.
std::vector<std::size_t> DartDropout::SelectDrops(const std::vector<float>& weight_drop) {
  std::vector<std::size_t> drops;
  std::uniform_real_distribution<> runif(0.0, 1.0);
  if (param_.skip_drop > 0.0f && runif(rng_) < param_.skip_drop) return drops;
  const std::size_t n = weight_drop.size();
  if (param_.sample_type == DartSample::kWeighted) {
    float sum_weight = 0.0f;
    for (float w : weight_drop) sum_weight += w;
    for (std::size_t i = 0; i < n; ++i) {
      if (runif(rng_) < param_.rate_drop * n * weight_drop[i] / sum_weight) drops.push_back(i);
    }
    if (param_.one_drop && drops.empty() && n != 0) {
      // XGBoost's MSVC-friendly form: weights w(k + 0.5) over [0, n), i.e. weight_drop[k].
      std::discrete_distribution<std::size_t> pick(
          n, 0.0, static_cast<double>(n),
          [&](double x) -> double { return weight_drop[static_cast<std::size_t>(x)]; });
      drops.push_back(pick(rng_));
    }
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      if (runif(rng_) < param_.rate_drop) drops.push_back(i);
    }
    if (param_.one_drop && drops.empty() && n != 0) {
      drops.push_back(std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_));
    }
  }
  return drops;
}

void DartDropout::Commit(const std::vector<std::size_t>& drops, std::size_t new_trees, float eta,
                         std::vector<float>* weight_drop) const {
  const float lr = 1.0 * eta / new_trees;
  const std::size_t num_drop = drops.size();
  if (num_drop == 0) {
    weight_drop->insert(weight_drop->end(), new_trees, 1.0f);
    return;
  }
  if (param_.normalize_type == DartNormalize::kForest) {
    const float factor = 1.0 / (1.0 + lr);
    for (std::size_t i : drops) (*weight_drop)[i] *= factor;
    weight_drop->insert(weight_drop->end(), new_trees, factor);
    return;
  }
  const float factor = 1.0 * num_drop / (num_drop + lr);
  for (std::size_t i : drops) (*weight_drop)[i] *= factor;
  weight_drop->insert(weight_drop->end(), new_trees, static_cast<float>(1.0 / (num_drop + lr)));
}

}  // namespace treering::booster
