#include "booster/linear/feature_selector.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "booster/linear/coordinate.h"

namespace treering::booster::linear {
namespace {

float Weight(const SelectorInput& in, std::size_t f, int g) {
  return (*in.weights)[f * in.groups + g];
}

std::uint32_t TopK(int top_k) {
  return top_k <= 0 ? std::numeric_limits<std::uint32_t>::max() : static_cast<std::uint32_t>(top_k);
}

class Cyclic : public FeatureSelector {
 public:
  int Next(int iteration, int, const SelectorInput& in) override {
    return static_cast<int>(iteration % in.num_feature);
  }
};

class Shuffle : public FeatureSelector {
 public:
  explicit Shuffle(std::mt19937* rng) : rng_(rng) {}
  void Setup(const SelectorInput& in) override {
    if (order_.empty()) {
      order_.resize(in.num_feature);
      std::iota(order_.begin(), order_.end(), 0u);
    }
    std::shuffle(order_.begin(), order_.end(), *rng_);
  }
  int Next(int iteration, int, const SelectorInput& in) override {
    return static_cast<int>(order_[iteration % in.num_feature]);
  }

 private:
  std::mt19937* rng_;
  std::vector<std::uint32_t> order_;  // XGBoost's bst_uint
};

class Random : public FeatureSelector {
 public:
  explicit Random(std::mt19937* rng) : rng_(rng) {}
  int Next(int, int, const SelectorInput& in) override {
    return static_cast<int>((*rng_)() % in.num_feature);
  }

 private:
  std::mt19937* rng_;
};

// XGBoost's pass ends one step early: it stops when the step count reaches num_feature after
// the increment, so a pass updates at most num_feature - 1 features (kept, to agree).
class Greedy : public FeatureSelector {
 public:
  void Setup(const SelectorInput& in) override {
    top_k_ = TopK(in.top_k);
    counter_.assign(in.groups, 0u);
  }
  int Next(int, int group, const SelectorInput& in) override {
    const std::uint32_t k = counter_[group]++;
    if (k >= top_k_ || counter_[group] == in.num_feature) return -1;
    in.stats->AllFeatures(group, *in.gpair, &sums_);
    int best = 0;
    double best_step = 0.0f;
    for (std::size_t f = 0; f < in.num_feature; ++f) {
      const float dw = std::abs(static_cast<float>(CoordinateDelta(
          sums_[f].grad, sums_[f].hess, Weight(in, f, group), in.alpha, in.lambda)));
      if (dw > best_step) {
        best_step = dw;
        best = static_cast<int>(f);
      }
    }
    return best;
  }

 private:
  std::uint32_t top_k_ = 0;
  std::vector<std::uint32_t> counter_;
  std::vector<GradSums> sums_;
};

class Thrifty : public FeatureSelector {
 public:
  void Setup(const SelectorInput& in) override {
    top_k_ = TopK(in.top_k);
    const std::size_t nf = in.num_feature;
    in.stats->AllFeatures(-1, *in.gpair, &sums_);
    deltaw_.assign(nf * in.groups, 0.0f);
    sorted_.resize(nf * in.groups);
    std::iota(sorted_.begin(), sorted_.end(), std::size_t{0});
    counter_.assign(in.groups, 0u);
    const float* dw = deltaw_.data();
    for (int g = 0; g < in.groups; ++g) {
      for (std::size_t f = 0; f < nf; ++f) {
        const GradSums& s = sums_[g * nf + f];
        deltaw_[g * nf + f] = static_cast<float>(
            CoordinateDelta(s.grad, s.hess, Weight(in, f, g), in.alpha, in.lambda));
      }
      // std::sort as XGBoost (not stable): the same input gives the same order.
      auto start = sorted_.begin() + g * nf;
      std::sort(start, start + nf, [dw](std::size_t i, std::size_t j) {
        return std::abs(*(dw + i)) > std::abs(*(dw + j));
      });
    }
  }
  int Next(int, int group, const SelectorInput& in) override {
    const std::uint32_t k = counter_[group]++;
    if (k >= top_k_ || counter_[group] == in.num_feature) return -1;
    const std::size_t offset = group * in.num_feature;
    return static_cast<int>(sorted_[offset + k] - offset);
  }

 private:
  std::uint32_t top_k_ = 0;
  std::vector<float> deltaw_;
  std::vector<std::size_t> sorted_;
  std::vector<std::uint32_t> counter_;
  std::vector<GradSums> sums_;
};

}  // namespace

std::unique_ptr<FeatureSelector> FeatureSelector::Create(FeatureSelection choice,
                                                         std::mt19937* rng) {
  switch (choice) {
    case FeatureSelection::kShuffle:
      return std::make_unique<Shuffle>(rng);
    case FeatureSelection::kRandom:
      return std::make_unique<Random>(rng);
    case FeatureSelection::kGreedy:
      return std::make_unique<Greedy>();
    case FeatureSelection::kThrifty:
      return std::make_unique<Thrifty>();
    case FeatureSelection::kCyclic:
      break;
  }
  return std::make_unique<Cyclic>();
}

}  // namespace treering::booster::linear
