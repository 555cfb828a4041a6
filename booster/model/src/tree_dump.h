// The three tree generators behind DumpTrees (model_dump.cc), one per file, and what they share:
// how the feature map classifies a split node (XGBoost's TreeGenerator::SplitNode).
#pragma once

#include <string>

#include "base/status.h"
#include "booster/feature_map.h"
#include "booster/tree_model.h"

namespace treering::booster::dump {

// kPlain: the feature has no fmap entry (named by its index).
// kCategorical: a categorical split (printed as its set, yes = the set's branch, the right).
enum class SplitKind { kPlain, kIndicator, kInteger, kQuantitative, kCategorical };

// XGBoost refuses to dump a numerical split on a feature its fmap calls categorical.
Result<SplitKind> KindOf(const RegTree& tree, int node, const FeatureMap& fmap);

// The child a missing value goes to.
inline int MissingChild(const RegTree& tree, int node) {
  return tree.default_left[node] ? tree.left[node] : tree.right[node];
}

// An indicator's "yes" branch: the child that is not the missing one (XGBoost's rule, so
// yes = feature present when missing values go where the indicator is 0).
inline int IndicatorYes(const RegTree& tree, int node) {
  return tree.default_left[node] ? tree.right[node] : tree.left[node];
}

// A categorical node's set as XGBoost prints it: "{1,3}" (text, dot) or "[1, 3]" (JSON).
std::string CategorySet(const RegTree& tree, int node, const char* open, const char* separator,
                        const char* close);

// The threshold of an integer feature: the split value rounded up (x < 2.5 <=> x < 3).
std::string IntegerThreshold(float cond);

// Each appends one tree (a non-empty tree; node 0 is the root) to *out.
Status TextTree(const RegTree& tree, const FeatureMap& fmap, bool with_stats, std::string* out);
Status JsonTree(const RegTree& tree, const FeatureMap& fmap, bool with_stats, std::string* out);
void DotTree(const RegTree& tree, const FeatureMap& fmap, std::string* out);
// gblinear's one dump string (linear_dump.cc): JSON when `json`, else text.
std::string LinearDump(const GBTreeModel& model, bool json);

}  // namespace treering::booster::dump
