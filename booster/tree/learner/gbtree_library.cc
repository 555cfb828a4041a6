// GBTreeLearner's part for library users (the C API, capi/): models from memory, slices, model
// info, rounds from the caller's gradients and eval sets given per call.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "booster/learner_support.h"
#include "booster/model_formats.h"
#include "booster/tree/learner/gbtree_learner.h"

namespace treering::booster {

Status GBTreeLearner::LoadModelBytes(std::string_view bytes, const std::string& source) {
  auto model = ParseModel(bytes, source);
  if (!model.ok()) return model.status();
  return LoadModel(std::move(model.value()));
}

// The trees are most of a model's bytes and all of its writing time; copying them (0.5 ms for
// 100 trees of depth 8) is cheaper than writing them (40 ms).
Result<std::string> GBTreeLearner::SerializeModelHeader(std::int64_t* num_trees) const {
  GBTreeModel header = model_;
  header.trees.clear();
  header.tree_info.clear();
  header.weight_drop.clear();
  *num_trees = static_cast<std::int64_t>(model_.trees.size());
  return ModelToJson(header);
}

// XGBoost's GBTree::Slice: rounds begin, begin + step, ... below end, with their trees' dart
// weights; attributes, names and types go along.
Result<std::string> GBTreeLearner::SliceModel(int begin, int end, int step) const {
  const int rounds = model_.NumRounds();
  if (end == 0) end = rounds;
  if (begin < 0 || step < 1 || end > rounds || begin >= end) {
    return Status::InvalidInput("slice [" + std::to_string(begin) + ", " + std::to_string(end) +
                                ") step " + std::to_string(step) + " is out of the model's " +
                                std::to_string(rounds) + " rounds");
  }
  GBTreeModel out = model_;
  out.trees.clear();
  out.tree_info.clear();
  out.weight_drop.clear();
  const int per_round = model_.TreesPerRound();
  for (int r = begin; r < end; r += step) {
    for (int t = r * per_round; t < (r + 1) * per_round; ++t) {
      out.trees.push_back(model_.trees[t]);
      out.tree_info.push_back(model_.tree_info[t]);
      if (model_.dart) out.weight_drop.push_back(model_.weight_drop[t]);
    }
  }
  for (const auto& [key, value] : attributes_) out.attributes[key] = value;
  return ModelToJson(out);
}

ModelInfo GBTreeLearner::GetModelInfo() const { return ModelInfoOf(model_, attributes_); }

void GBTreeLearner::SetModelInfo(const ModelInfo& info) {
  SetModelInfoOf(info, &model_, &attributes_);
}

// As UpdateOneIter with the objective's gradients replaced by the caller's: XGBoost's
// BoostOneIter does no more than hand them to the booster.
Status GBTreeLearner::BoostFromGradients(const std::vector<float>& grad,
                                         const std::vector<float>& hess) {
  if (Status s = CheckCustomGradients(train_, objective_->NumGroups(), grad, hess); !s.ok()) {
    return s;
  }
  BeginRound();
  gpair_.resize(grad.size());
  for (std::size_t i = 0; i < grad.size(); ++i) gpair_[i] = GradientPair{grad[i], hess[i]};
  for (int group = 0; group < objective_->NumGroups(); ++group) BoostGroup(group, gpair_, nullptr);
  EndRound();
  return Status::Ok();
}

Result<std::vector<EvalResult>> GBTreeLearner::EvalOn(const std::vector<NamedMatrix>& sets) {
  std::vector<EvalResult> results;
  if (metrics_.empty()) {
    if (Status s = ResolveMetrics(); !s.ok()) return s;
  }
  for (const NamedMatrix& set : sets) {
    std::vector<float>* margins = &train_margins_;
    int* applied = &train_trees_applied_;
    if (set.dm != train_) {
      auto [it, added] = eval_cache_.try_emplace(set.dm, EvalSet{set.name, set.dm, {}, 0});
      if (added) {
        if (Status s = CheckData(*set.dm, "eval set " + set.name); !s.ok()) {
          eval_cache_.erase(it);
          return s;
        }
      }
      margins = &it->second.margins;
      applied = &it->second.trees_applied;
    }
    CatchUp(*set.dm, margins, applied);
    std::vector<float> preds = *margins;
    objective_->EvalTransform(&preds, ctx_);
    for (const auto& metric : metrics_) {
      auto value = Score(*metric, preds, *set.dm);
      if (!value.ok()) return value.status();
      results.push_back({set.name + "-" + metric->Name(), value.value()});
    }
  }
  return results;
}

// The training matrix's margins are recomputed from the trees too (same sums in the same
// order as the rounds' additions, so training goes on identically).
void GBTreeLearner::ForgetMatrix(const data::DMatrix* dm) {
  eval_cache_.erase(dm);
  if (dm == train_) {
    train_margins_.clear();
    train_trees_applied_ = 0;
  }
}

// eta only: BeginRound hands it to the growers (grow_param_) for each new round and dart's
// weights for each round; nothing computed earlier depends on it.
Result<bool> GBTreeLearner::TuneInPlace(const std::string& key, const std::string& value) {
  if (key != "eta" && key != "learning_rate") return false;
  TreeParam next = tparam_;
  if (Status s = TreeParam::Table().Set(&next, key, value); !s.ok()) return s;
  if (Status s = next.Validate(); !s.ok()) return s;
  tparam_.eta = next.eta;
  return true;
}

}  // namespace treering::booster
