// DART's dropout and tree weights as XGBoost 1.7 computes them (src/gbm/gbtree.cc, class Dart):
// which trees a round's training margins leave out (DropTrees), and how the weights change once
// the round's trees are in (NormalizeTrees). The draws come from one std::mt19937 seeded with
// `seed`, standing for 1.7's common::GlobalRandom(): its tree updaters draw from the same
// stream, so the learner tells Discard how many they would take and the drops stay XGBoost's.
// The same seed on every rank gives every rank the same drops.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "booster/tree/dart/dart_param.h"

namespace treering::booster {

class DartDropout {
 public:
  DartDropout(const DartParam& param, std::uint64_t seed);

  // Indices of the trees to drop this round, ascending (one_drop's single pick aside, which
  // is alone), given the current weights (one per tree).
  std::vector<std::size_t> SelectDrops(const std::vector<float>& weight_drop);
  // Draws of the global stream taken elsewhere (XGBoost's column sampler and row subsampling).
  void Discard(std::uint64_t draws) { rng_.discard(draws); }

  // Dart::NormalizeTrees after a round added `new_trees` trees grown with learning rate `eta`:
  // the dropped trees' weights shrink and the new trees' weights are appended.
  void Commit(const std::vector<std::size_t>& drops, std::size_t new_trees, float eta,
              std::vector<float>* weight_drop) const;

 private:
  DartParam param_;
  std::mt19937 rng_;
};

}  // namespace treering::booster
