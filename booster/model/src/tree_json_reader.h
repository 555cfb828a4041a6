// Reads and checks one tree object of an XGBoost 1.7 JSON model.
#pragma once

#include <cstdint>

#include "booster/tree_model.h"
#include "json_cursor.h"

namespace treering::booster {

// Every array must have tree_param.num_nodes entries; node links must form a tree rooted at 0
// (each reachable node reached once, parents consistent) and split features must be below
// num_feature, so prediction over a loaded tree always terminates and stays in bounds.
Result<RegTree> ReadTree(const JsonCursor& tree, std::uint64_t num_feature);

}  // namespace treering::booster
