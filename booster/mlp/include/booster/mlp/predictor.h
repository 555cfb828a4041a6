// Forward passes over whole matrices (evaluation sets, task=pred), in fixed-size chunks of rows.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "booster/mlp/network.h"
#include "data/dmatrix.h"

namespace treering::booster::mlp {

// kInvalidInput naming `key` when a row uses a feature index the model has no input for; an
// empty key leaves the naming to the caller.
Status CheckFeatureRange(const data::DMatrix& m, int num_inputs, const std::string& key);

// Logits of every row of `scaled` (values already multiplied by scaling.inv_std), row-major.
std::vector<float> PredictLogits(const Architecture& arch, const std::vector<float>& params,
                                 const InputScaling& scaling, const data::DMatrix& scaled,
                                 int nthread);

}  // namespace treering::booster::mlp
