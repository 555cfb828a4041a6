#include "predict_run.h"

#include <algorithm>
#include <string>

#include "api_error.h"
#include "booster/linear/linear_learner.h"
#include "booster/tree/learner/gbtree_learner.h"

namespace treering::capi {

ModelFacts FactsOf(const booster::Learner& learner) {
  ModelFacts facts;
  facts.rounds = learner.RoundsInModel();
  const booster::GBTreeModel* model = nullptr;
  if (const auto* tree = dynamic_cast<const booster::GBTreeLearner*>(&learner)) {
    model = &tree->Model();
  } else if (const auto* linear = dynamic_cast<const booster::linear::LinearLearner*>(&learner)) {
    model = &linear->Model();  // no trees: the dumps and importance read its weights
  }
  if (model != nullptr) {
    facts.trees = model;
    facts.groups = facts.trees->NumGroups();
    facts.parallel = facts.trees->num_parallel_tree;
    facts.num_feature = facts.trees->num_feature;
  }
  return facts;
}

void RunPrediction(const BoosterObject::ReadView& view, const data::DMatrix& dm,
                   const PredictRequest& given, const char* data_arg, ReturnSlot* slot,
                   const PredictOutputs& out) {
  const ModelFacts facts = FactsOf(*view.learner);
  const PredictRequest request = ResolveTreeLimit(given, facts);
  const bool explains = request.type != PredictType::kValue &&
                        request.type != PredictType::kMargin && request.type != PredictType::kLeaf;
  if (explains && !dm.base_margin.empty()) {
    throw ApiError(std::string(data_arg) +
                   ": base_margin with contributions or interactions is not supported");
  }
  const std::uint64_t margins = dm.NumRows() * static_cast<std::uint64_t>(facts.groups);
  if (!dm.base_margin.empty() && dm.base_margin.size() != margins) {
    throw ApiError(std::string(data_arg) + ": base_margin has " +
                   std::to_string(dm.base_margin.size()) + " values for " +
                   std::to_string(dm.NumRows()) + " rows x " + std::to_string(facts.groups) +
                   " output groups");
  }
  // Trees never write to the matrix (GBTreeLearner::Predict reads it only), so one matrix may
  // serve several threads' predictions at once.
  ThrowIfError(
      view.learner->Predict(const_cast<data::DMatrix*>(&dm), request.Options(), &slot->floats));
  ReturnPrediction(facts, request, dm.NumRows(), dm.num_col, slot, out);
}

PredictRequest ResolveTreeLimit(const PredictRequest& given, const ModelFacts& facts) {
  PredictRequest request = given;
  if (request.ntree_limit != 0) {  // XGBoost 1.7's GetIterationFromTreeLimit
    request.iteration_end = request.ntree_limit / std::max(facts.parallel, 1);
    request.ntree_limit = 0;
  }
  return request;
}

void ReturnPrediction(const ModelFacts& facts, const PredictRequest& request, std::uint64_t rows,
                      std::uint64_t cols, ReturnSlot* slot, const PredictOutputs& out) {
  *out.result = slot->floats.data();
  if (out.length != nullptr) {
    *out.length = slot->floats.size();
    return;
  }
  int rounds = request.iteration_end - request.iteration_begin;
  if (rounds <= 0) rounds = facts.rounds - request.iteration_begin;
  const PredictDims dims{rows, cols, slot->floats.size(), static_cast<std::uint64_t>(facts.groups),
                         static_cast<std::uint64_t>(rounds)};
  std::vector<std::uint64_t> shape = PredictShape(request, dims);
  slot->shape.assign(shape.begin(), shape.end());
  *out.shape = reinterpret_cast<const bst_ulong*>(slot->shape.data());
  *out.dim = shape.size();
}

}  // namespace treering::capi
