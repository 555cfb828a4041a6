#include "booster/tree/split/column_sampler.h"

#include <algorithm>
#include <numeric>

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
  std::vector<std::uint32_t> shuffled = from;
  std::shuffle(shuffled.begin(), shuffled.end(), rng_);
  shuffled.resize(std::min(n, shuffled.size()));
  std::sort(shuffled.begin(), shuffled.end());
  return shuffled;
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
