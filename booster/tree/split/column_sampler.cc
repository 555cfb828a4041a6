#include "booster/tree/split/column_sampler.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <utility>

namespace treering::booster {

ColumnSampler::ColumnSampler(std::uint32_t num_features, float bytree, float bylevel, float bynode,
                             std::uint64_t seed)
    : num_features_(num_features),
      bytree_(bytree),
      bylevel_(bylevel),
      bynode_(bynode),
      seed_(seed),
      rng_(seed) {}

void ColumnSampler::Reseed(std::uint64_t tree_index) {
  std::seed_seq seq{seed_, tree_index};
  rng_.seed(seq);
}

std::vector<std::uint32_t> ColumnSampler::Sample(const std::vector<std::uint32_t>& from,
                                                 float fraction) {
  if (fraction >= 1.0f) return from;
  const auto n = std::max<std::size_t>(1, static_cast<std::size_t>(fraction * from.size()));
  if (!weights_.empty()) return WeightedSample(from, n);
  std::vector<std::uint32_t> shuffled = from;
  std::shuffle(shuffled.begin(), shuffled.end(), rng_);
  shuffled.resize(std::min(n, shuffled.size()));
  std::sort(shuffled.begin(), shuffled.end());
  return shuffled;
}

// Efraimidis and Spirakis' weighted sampling without replacement, as XGBoost 1.7's
// WeightedSamplingWithoutReplacement: key log(u) / w per feature, the n largest keys win.
// Weights below 1e-6 count as 1e-6 (XGBoost's kRtEps), so a zero weight loses to any positive
// one but the draw still fills n features.
std::vector<std::uint32_t> ColumnSampler::WeightedSample(const std::vector<std::uint32_t>& from,
                                                         std::size_t n) {
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<std::pair<double, std::uint32_t>> keyed(from.size());
  for (std::size_t i = 0; i < from.size(); ++i) {
    const std::uint32_t f = from[i];
    const double w = std::max(f < weights_.size() ? weights_[f] : 1.0f, 1e-6f);
    // u in (0, 1]: log(0) would make every zero draw tie at -inf.
    const double u = 1.0 - uniform(rng_);
    keyed[i] = {std::log(u) / w, f};
  }
  n = std::min(n, keyed.size());
  // Largest key first; ties (equal keys) by feature id, so the draw is the same everywhere.
  std::partial_sort(keyed.begin(), keyed.begin() + static_cast<std::ptrdiff_t>(n), keyed.end(),
                    [](const auto& a, const auto& b) {
                      return a.first != b.first ? a.first > b.first : a.second < b.second;
                    });
  std::vector<std::uint32_t> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = keyed[i].second;
  std::sort(out.begin(), out.end());
  return out;
}

void ColumnSampler::NewTree() {
  std::vector<std::uint32_t> all(num_features_);
  std::iota(all.begin(), all.end(), 0u);
  tree_set_ = Sample(all, bytree_);
  level_sets_.clear();
}

std::vector<std::uint32_t> ColumnSampler::NodeFeatures(int depth) {
  auto it = level_sets_.find(depth);
  if (it == level_sets_.end()) it = level_sets_.emplace(depth, Sample(tree_set_, bylevel_)).first;
  return Sample(it->second, bynode_);
}

}  // namespace treering::booster
