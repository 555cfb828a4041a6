// UpdateParam: XGBoost 1.7's process_type, updater and refresh_leaf (GBTreeTrainParam,
// TrainParam). process_type=update walks an existing model's trees round by round and changes
// them with the `refresh` and `prune` updaters instead of growing new ones
// (gbtree_update.cc); in default mode `updater` names a grower, i.e. a tree method.
#pragma once

#include <string>
#include <vector>

#include "base/param_table.h"
#include "base/status.h"

namespace treering::booster {

struct UpdateParam {
  bool update = false;                // process_type=update
  std::vector<std::string> updaters;  // the comma-separated sequence, in order
  bool refresh_leaf = true;           // refresh: leaves take the new weights (else stats only)

  bool Uses(const std::string& name) const {
    for (const std::string& u : updaters) {
      if (u == name) return true;
    }
    return false;
  }
  static const ParamTable<UpdateParam>& Table();
  // Checks the sequence against process_type (XGBoost's CanModifyTree checks) and returns the
  // tree method a default-mode grower stands for ("" when `updater` was not given).
  Result<std::string> Validate() const;
};

}  // namespace treering::booster
