// process_type=update (XGBoost 1.7's GBTree::BoostNewTrees with kUpdate): the loaded model's
// trees are moved aside when training starts; round r takes the trees of the model's round r,
// runs the updaters on them with the gradients of the model rebuilt so far, and puts them back.
// The model saved holds the rounds updated so far, as XGBoost's does.
#include <chrono>

#include "booster/tree/grow/tree_prune.h"
#include "booster/tree/grow/tree_refresh.h"
#include "booster/tree/learner/gbtree_learner.h"

namespace treering::booster {

Status GBTreeLearner::StartUpdateProcess() {
  if (model_.dart) {
    return Status::InvalidKey("process_type",
                              "parameter process_type: update is not supported for booster=dart "
                              "in treering (its tree weights are not refreshed)");
  }
  trees_to_update_ = std::move(model_.trees);
  model_.trees.clear();
  model_.tree_info.clear();
  train_margins_.clear();
  train_trees_applied_ = 0;
  for (auto& set : eval_sets_) {
    set.margins.clear();
    set.trees_applied = 0;
  }
  eval_cache_.clear();
  update_started_ = true;
  return Status::Ok();
}

Status GBTreeLearner::UpdateExistingRound() {
  if (!update_started_) {
    if (Status s = StartUpdateProcess(); !s.ok()) return s;
  }
  const auto start = std::chrono::steady_clock::now();
  const rabit::CommStats before = comm_->Stats();
  const std::size_t per_round = static_cast<std::size_t>(model_.TreesPerRound());
  const std::size_t first = model_.trees.size();
  if (first + per_round > trees_to_update_.size()) {
    return Status::InvalidInput(
        "process_type=update: no more trees left for updating: boosting rounds can not "
        "exceed the model's " +
        std::to_string(trees_to_update_.size() / per_round) + " rounds");
  }
  round_cost_ = RoundCost{};
  round_first_tree_ = static_cast<int>(first);
  CatchUp(*train_, &train_margins_, &train_trees_applied_);
  const int round = static_cast<int>(first / per_round);
  const LabelView labels{&train_->label, &train_->weight, &train_->group_ptr, round};
  objective_->GetGradient(train_margins_, labels, ctx_, &gpair_);
  const int groups = objective_->NumGroups();
  const int trees_per_group = model_.num_parallel_tree;
  for (int group = 0; group < groups; ++group) {
    if (groups > 1) {
      group_gpair_.resize(train_->NumRows());
      for (std::size_t row = 0; row < group_gpair_.size(); ++row) {
        group_gpair_[row] = gpair_[row * groups + group];
      }
    }
    const RefreshInput in{train_, groups > 1 ? &group_gpair_ : &gpair_, update_param_.refresh_leaf};
    std::vector<RegTree*> trees;
    for (int k = 0; k < trees_per_group; ++k) {
      trees.push_back(&trees_to_update_[first + group * trees_per_group + k]);
    }
    // XGBoost's updaters rescale learning_rate by the number of trees they change at once.
    const float eta = tparam_.eta / static_cast<float>(trees.size());
    for (const std::string& name : update_param_.updaters) {
      if (name == "refresh") RefreshTrees(tparam_, in, ctx_.Threads(), comm_, trees);
      if (name == "prune") {
        for (RegTree* t : trees) PruneTree(tparam_.min_split_loss, tparam_.max_depth, eta, t);
      }
      // sync broadcasts rank 0's trees in XGBoost; here every rank computes the same trees
      // from the same allreduced sums.
    }
  }
  for (std::size_t i = first; i < first + per_round; ++i) {
    model_.trees.push_back(std::move(trees_to_update_[i]));
    model_.tree_info.push_back(static_cast<int>((i - first) / trees_per_group));
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const rabit::CommStats after = comm_->Stats();
  round_cost_.sync_s = after.seconds - before.seconds;
  round_cost_.comp_s = seconds - round_cost_.sync_s;
  round_cost_.payload_bytes = static_cast<double>(after.payload_bytes - before.payload_bytes);
  round_cost_.calls = static_cast<double>(after.calls - before.calls);
  timing_.boost_s += seconds;
  return Status::Ok();
}

}  // namespace treering::booster
