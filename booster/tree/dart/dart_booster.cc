#include "booster/tree/dart/dart_booster.h"

#include <algorithm>

namespace treering::booster {

std::vector<float> DartRounds::DropTrees(const std::vector<float>& weight_drop) {
  dropped_ = dropout_.SelectDrops(weight_drop);
  std::vector<float> weights = weight_drop;
  for (std::size_t t : dropped_) weights[t] = 0.0f;
  return weights;
}

// XGBoost's updaters draw from the same global stream: hist's column sampler once, when the
// updater first grows a tree, and its row subsampling once per tree (InitSampling); exact
// builds a column sampler per tree (one draw) and flips a coin per row with a non-negative
// hessian (a double from two draws). treering's own samplers use their own streams, so with
// subsample < 1 the trees differ from XGBoost's but the drops stay the same.
void DartRounds::BeforeTree(bool exact, bool subsample, const std::vector<GradientPair>& gpair) {
  if (exact) {
    std::uint64_t draws = 1;
    if (subsample) {
      draws += 2 * static_cast<std::uint64_t>(std::count_if(
                       gpair.begin(), gpair.end(), [](GradientPair g) { return g.hess >= 0.0f; }));
    }
    dropout_.Discard(draws);
    return;
  }
  if (!hist_sampler_drawn_) dropout_.Discard(1);
  hist_sampler_drawn_ = true;
  if (subsample) dropout_.Discard(1);
}

void DartRounds::CommitRound(std::size_t new_trees, float eta, std::vector<float>* weight_drop) {
  dropout_.Commit(dropped_, new_trees, eta, weight_drop);
  dropped_.clear();
}

}  // namespace treering::booster
