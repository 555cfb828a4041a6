// GBTreeLearner's booster=dart steps (XGBoost 1.7's Dart over GBTree). A round: drop trees and
// compute the training margins without them (Dart::PredictBatch with training=true), fit the
// round's trees to those margins' gradients, then reweigh (Dart::CommitModel). Predictions use
// the weights through AddTreeOutputs, so eval sets and Predict need nothing here.
#include <algorithm>

#include "booster/gbtree_learner.h"
#include "booster/predictor.h"

namespace treering::booster {

void GBTreeLearner::DartDropTrees() {
  dropped_ = dropout_->SelectDrops(model_.weight_drop);
  std::vector<float> weights = model_.weight_drop;
  for (std::size_t t : dropped_) weights[t] = 0.0f;  // x * 0 adds nothing to a margin
  train_margins_ = BaseMargins(train_->NumRows());
  AddTreeOutputs(model_, *train_, 0, static_cast<int>(model_.trees.size()), ctx_.Threads(),
                 &train_margins_, &weights);
  train_trees_applied_ = static_cast<int>(model_.trees.size());
}

// XGBoost's updaters draw from the same global stream: hist's column sampler once, when the
// updater first grows a tree, and its row subsampling once per tree (InitSampling); exact
// builds a column sampler per tree (one draw) and flips a coin per row with a non-negative
// hessian (a double from two draws). treering's own samplers use their own streams, so with
// subsample < 1 the trees differ from XGBoost's but the drops stay the same.
void GBTreeLearner::DartBeforeTree(const std::vector<GradientPair>& gpair) {
  const bool subsample = tparam_.subsample < 1.0f;
  if (exact_) {
    std::uint64_t draws = 1;
    if (subsample) {
      draws += 2 * static_cast<std::uint64_t>(std::count_if(
                       gpair.begin(), gpair.end(), [](GradientPair g) { return g.hess >= 0.0f; }));
    }
    dropout_->Discard(draws);
    return;
  }
  if (!hist_sampler_drawn_) dropout_->Discard(1);
  hist_sampler_drawn_ = true;
  if (subsample) dropout_->Discard(1);
}

void GBTreeLearner::DartCommitRound(std::size_t new_trees) {
  dropout_->Commit(dropped_, new_trees, tparam_.eta, &model_.weight_drop);
  dropped_.clear();
  train_margins_.clear();  // the weights changed: CatchUp recomputes them
}

}  // namespace treering::booster
