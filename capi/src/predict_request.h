// What a prediction call asks for, read from the C API's JSON configuration
// (XGBoosterPredictFromDMatrix, XGBoosterPredictFromDense / CSR) or from the legacy
// XGBoosterPredict's option_mask, and the shape XGBoost 1.7 reports for the result.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "booster/learner.h"

namespace treering::capi {

// XGBoost's PredictionType numbers, as the configuration's "type" carries them.
enum class PredictType : int {
  kValue = 0,
  kMargin = 1,
  kContribs = 2,
  kApproxContribs = 3,
  kInteractions = 4,
  kApproxInteractions = 5,
  kLeaf = 6,
};

struct PredictRequest {
  PredictType type = PredictType::kValue;
  bool training = false;
  int iteration_begin = 0;
  int iteration_end = 0;  // 0: to the model's last round
  // The deprecated ntree_limit (trees per class): RunPrediction turns it into iteration_end =
  // ntree_limit / num_parallel_tree, as XGBoost 1.7's GetIterationFromTreeLimit.
  int ntree_limit = 0;
  bool strict_shape = false;
  float missing = 0.0f;      // inplace only: this value (and NaN) marks a missing feature
  bool has_missing = false;  // "missing" was given

  booster::PredictOptions Options() const;
};

// Parses the configuration of XGBoosterPredictFromDMatrix (`inplace` false: type, training,
// iteration_begin, iteration_end, strict_shape required; ntree_limit optional) or of inplace
// prediction (`inplace` true: type, iteration_begin, iteration_end, strict_shape and missing
// required; cache_id must be 0; only types 0 and 1, as XGBoost 1.7). Throws ApiError naming
// "config" and the member.
PredictRequest ParsePredictConfig(const char* config, bool inplace);

// The legacy XGBoosterPredict's flags (1 margin, 2 leaf, 4 contribs, 8 approx, 16
// interactions) and its ntree_limit (rounds; 0 = all, as XGBoost 1.7 without parallel trees).
PredictRequest RequestFromOptionMask(int option_mask, unsigned ntree_limit, bool training);

// XGBoost 1.7's output shape (c_api_utils.h, CalcPredictShape): `values` floats for `rows`
// rows of `cols` features, `groups` output groups, `rounds` rounds predicted with. Throws
// ApiError when the values do not fill that shape (a bug, not a user error).
struct PredictDims {
  std::uint64_t rows, cols, values, groups, rounds;
};
std::vector<std::uint64_t> PredictShape(const PredictRequest& request, const PredictDims& dims);

}  // namespace treering::capi
