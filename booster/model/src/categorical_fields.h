// A tree's categorical splits as XGBoost 1.7 stores them (RegTree::SaveCategoricalSplit and
// LoadCategoricalSplit): a split_type per node (0 numerical, 1 categorical) and, for the
// categorical nodes in node order, their sets as one flat array with per-node offsets/sizes.
// Shared by the JSON and UBJSON writers and by the one tree reader, so they cannot drift.
#pragma once

#include <cstdint>
#include <vector>

#include "base/status.h"
#include "booster/tree_model.h"
#include "json_cursor.h"

namespace treering::booster {

struct CategoricalFields {
  std::vector<std::uint8_t> split_type;           // one per node
  std::vector<std::int32_t> categories_nodes;     // the categorical nodes, ascending
  std::vector<std::int64_t> categories_segments;  // where each node's set starts in categories
  std::vector<std::int64_t> categories_sizes;     // its length (never 0)
  std::vector<std::int32_t> categories;           // the sets' categories (those going right)
};

CategoricalFields FlattenCategories(const RegTree& tree);

// Reads the fields above (all optional: a model without them is all numerical) into
// tree->categories. n: the tree's node count; every set must be non-empty and hold categories
// in [0, 2^24), and a categorical node must be an internal node.
Status ReadCategories(const JsonCursor& tree, std::size_t n, RegTree* t);

// What the writers check: sets are non-empty, ascending, valid categories, on internal nodes.
Status CheckCategories(const RegTree& tree);

}  // namespace treering::booster
