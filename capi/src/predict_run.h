// The part every prediction call shares: run Learner::Predict on a read view of the booster
// (many threads at once), check the matrix against the model, and hand the floats and XGBoost
// 1.7's shape back through the calling thread's return slot.
#pragma once

#include <cstdint>

#include "booster_object.h"
#include "predict_request.h"
#include "treering/c_api.h"

namespace treering::booster {
struct GBTreeModel;
}

namespace treering::capi {

// What prediction needs to know of the model behind a learner.
struct ModelFacts {
  int groups = 1;                               // output groups (classes)
  int rounds = 0;                               // boosting rounds in the model
  int parallel = 1;                             // trees per class per round (num_parallel_tree)
  std::uint64_t num_feature = 0;                // features the model was trained on (0: unknown)
  const booster::GBTreeModel* trees = nullptr;  // null unless a tree model
};
ModelFacts FactsOf(const booster::Learner& learner);

// Where a call returns its result; every pointer checked non-null before any work.
struct PredictOutputs {
  const bst_ulong** shape = nullptr;
  bst_ulong* dim = nullptr;
  const float** result = nullptr;
  bst_ulong* length = nullptr;  // the legacy call's out_len (shape and dim unused then)
};

// Predicts `dm` (rows checked against the model's features by the caller) and fills `out`
// from `slot`. `data_arg` names the matrix's argument in errors.
void RunPrediction(const BoosterObject::ReadView& view, const data::DMatrix& dm,
                   const PredictRequest& request, const char* data_arg, ReturnSlot* slot,
                   const PredictOutputs& out);

// The request with ntree_limit turned into iteration_end (XGBoost 1.7's
// GetIterationFromTreeLimit).
PredictRequest ResolveTreeLimit(const PredictRequest& given, const ModelFacts& facts);

// Points `out` at the floats in `slot` (already predicted for rows x cols input) with XGBoost
// 1.7's shape for `request` (ntree_limit resolved).
void ReturnPrediction(const ModelFacts& facts, const PredictRequest& request, std::uint64_t rows,
                      std::uint64_t cols, ReturnSlot* slot, const PredictOutputs& out);

}  // namespace treering::capi
