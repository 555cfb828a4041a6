// DartParam: booster=dart and its keys (XGBoost 1.7's DartTrainParam, src/gbm/gbtree.h). DART's
// learning rate is the tree's eta, as XGBoost aliases them.
#pragma once

#include <string>

#include "base/param_table.h"

namespace treering::booster {

enum class DartSample { kUniform, kWeighted };
enum class DartNormalize { kTree, kForest };

struct DartParam {
  std::string booster = "gbtree";  // or "dart"
  bool booster_set = false;
  DartSample sample_type = DartSample::kUniform;
  DartNormalize normalize_type = DartNormalize::kTree;
  float rate_drop = 0.0f;
  bool one_drop = false;
  float skip_drop = 0.0f;

  bool IsDart() const { return booster == "dart"; }
  // Every key with its default, range and meaning (base/param_table.h).
  static const ParamTable<DartParam>& Table();
};

}  // namespace treering::booster
