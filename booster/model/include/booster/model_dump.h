// Human-readable dumps of a GBTreeModel, byte for byte as XGBoost 1.7's `task=dump` / Python
// Booster.get_dump (without a feature map: features are named f<index> in text, <index> in JSON).
//
// text:  booster[0]:                                       (the header is added by DumpModel)
//        0:[f89<10] yes=1,no=2,missing=1,gain=6290.02148,cover=10800
//        <TAB>1:leaf=-0.152151838,cover=6769.07959
// json:  [ { "nodeid": 0, "depth": 0, "split": "89", "split_condition": 10, ... "children": [...
// Numbers use XGBoost's dump precision (9 significant digits, %g style).
#pragma once

#include <string>
#include <vector>

#include "booster/tree_model.h"

namespace treering::booster {

enum class DumpFormat { kText, kJson };

// One string per tree, as Booster.get_dump(with_stats=...) returns them.
std::vector<std::string> DumpTrees(const GBTreeModel& model, DumpFormat format, bool with_stats);

// The whole file XGBoost's CLI writes for task=dump: "booster[i]:\n" + tree for text, a JSON
// array of the trees for json.
std::string DumpModel(const GBTreeModel& model, DumpFormat format, bool with_stats);

}  // namespace treering::booster
