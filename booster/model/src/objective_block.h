// The objective's parameter block in XGBoost 1.7 JSON ("objective": {"name": ..., "<block>":
// {...}}). XGBoost's loader reads the block its objective expects, so it must be present.
#pragma once

#include <map>
#include <string>

#include "booster/tree_model.h"

namespace treering::booster {

struct ObjectiveBlock {
  std::string name;                           // e.g. "reg_loss_param"; empty: no block
  std::map<std::string, std::string> params;  // string values, as XGBoost writes them
};

// What XGBoost 1.7 writes for `objective` with default parameters.
ObjectiveBlock DefaultObjectiveBlock(const std::string& objective);

// The block to write for `model`: the default for its objective, overlaid with the params kept
// from a loaded file, then with the typed fields (scale_pos_weight, num_class).
ObjectiveBlock ObjectiveBlockFor(const GBTreeModel& model);

}  // namespace treering::booster
