// DartRounds: booster=dart's state across a job's rounds (XGBoost 1.7's Dart over GBTree): the
// global random stream, this round's drops, and whether hist's column sampler has taken its
// draw. A round: drop trees (the learner computes the training margins without them, as
// Dart::PredictBatch with training=true), fit the round's trees, then reweigh
// (Dart::CommitModel). Predictions use the weights through AddTreeOutputs, so eval sets and
// Predict need nothing here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "booster/objective.h"
#include "booster/tree/dart/dart_param.h"
#include "booster/tree/dart/dart_weights.h"

namespace treering::booster {

class DartRounds {
 public:
  DartRounds(const DartParam& param, std::uint64_t seed) : dropout_(param, seed) {}

  // The round's drops, given every tree's weight: returns the weights with the dropped trees'
  // zeroed (x * 0 adds nothing to a margin), for the round's training margins.
  std::vector<float> DropTrees(const std::vector<float>& weight_drop);
  // The draws XGBoost's updater takes from the same stream before growing a tree on `gpair`
  // (exact: tree_method=exact; subsample: subsample < 1).
  void BeforeTree(bool exact, bool subsample, const std::vector<GradientPair>& gpair);
  // The weights once the round's `new_trees` trees, grown with learning rate eta, are in.
  void CommitRound(std::size_t new_trees, float eta, std::vector<float>* weight_drop);

 private:
  DartDropout dropout_;
  std::vector<std::size_t> dropped_;  // this round's dropped trees
  bool hist_sampler_drawn_ = false;   // XGBoost's hist column sampler took its draw
};

}  // namespace treering::booster
