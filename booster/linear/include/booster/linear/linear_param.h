// LinearParam: the keys of booster=gblinear beyond the learner's (objective, metrics, ...), with
// XGBoost 1.7's names, defaults and ranges (src/gbm/gblinear.cc GBLinearTrainParam,
// src/linear/param.h LinearTrainParam, coordinate_common.h CoordinateParam).
#pragma once

#include <string>

#include "base/param_table.h"
#include "base/status.h"

namespace treering::booster::linear {

enum class FeatureSelection { kCyclic, kShuffle, kThrifty, kGreedy, kRandom };

struct LinearParam {
  std::string booster = "gblinear";  // the factory's key, accepted here so tables list it
  std::string updater = "shotgun";   // shotgun | coord_descent
  FeatureSelection feature_selector = FeatureSelection::kCyclic;
  int top_k = 0;           // greedy / thrifty: features per group per round, 0 = all
  float tolerance = 0.0f;  // stop when the largest weight change of a round is <= this
  float learning_rate = 0.5f;
  float reg_lambda = 0.0f;  // L2, per unit of instance weight
  float reg_alpha = 0.0f;   // L1, per unit of instance weight

  static const ParamTable<LinearParam>& Table();
  // shotgun takes cyclic and shuffle only (XGBoost 1.7's ShotgunUpdater::Configure).
  Status Validate() const;
};

const char* SelectorName(FeatureSelection s);

}  // namespace treering::booster::linear
