// Human-readable dumps of a GBTreeModel, byte for byte as XGBoost 1.7's `task=dump` / Python
// Booster.get_dump (src/tree/tree_model.cc: TextGenerator, JsonGenerator, GraphvizGenerator).
// Without a feature map features are named f<index> (text, dot) or <index> (JSON); with one
// (`fmap=FILE`, booster/feature_map.h) by name, indicator features as just the name with
// yes = the non-missing child, integer features with the threshold rounded up.
//
// text:  booster[0]:                                       (the header is added by DumpModel)
//        0:[f89<10] yes=1,no=2,missing=1,gain=6290.02148,cover=10800
//        <TAB>1:leaf=-0.152151838,cover=6769.07959
// json:  [ { "nodeid": 0, "depth": 0, "split": "89", "split_condition": 10, ... "children": [...
// dot:   digraph { graph [ rankdir=TB ] ... 0 [ label="f89<10" ] 0 -> 1 [label="yes, missing" ...
// Categorical splits (XGBoost 1.7's Categorical generators): text "0:[1:{0,2}] yes=2,no=1,..."
// (yes = the right child, the set's branch), JSON "split_condition": [0, 2], dot "f1:{0,2}".
// Numbers use XGBoost's dump precision (9 significant digits, %g style).
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "booster/feature_map.h"
#include "booster/tree_model.h"

namespace treering::booster {

enum class DumpFormat { kText, kJson, kDot };

struct DumpSpec {
  DumpFormat format = DumpFormat::kText;
  bool with_stats = false;  // gain and cover (text, JSON; dot has none, as in XGBoost)
  FeatureMap fmap;          // empty: no names
};

// One string per tree, as Booster.get_dump(fmap, with_stats, dump_format) returns them. Fails
// (kInvalidInput) only when the feature map's type of a split feature disagrees with the split
// (c for a numerical split, anything else for a categorical one).
Result<std::vector<std::string>> DumpTrees(const GBTreeModel& model, const DumpSpec& spec);

// The whole file XGBoost's CLI writes for task=dump: "booster[i]:\n" + tree for text and dot, a
// JSON array of the trees for json.
Result<std::string> DumpModel(const GBTreeModel& model, const DumpSpec& spec);

// Without a feature map (cannot fail).
std::vector<std::string> DumpTrees(const GBTreeModel& model, DumpFormat format, bool with_stats);
std::string DumpModel(const GBTreeModel& model, DumpFormat format, bool with_stats);

}  // namespace treering::booster
