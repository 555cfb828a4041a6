// XGBoost 1.7's prune updater (src/tree/updater_prune.cc): after a tree is grown (exact's
// grow_colmaker,prune) or on an existing tree (process_type=update, updater=prune).
#pragma once

#include "booster/tree_model.h"

namespace treering::booster {

// Turns into a leaf every split whose children are both leaves and whose loss_chg is below
// `gamma`, or whose leaves lie deeper than `max_depth` (0: no depth limit), repeated upwards.
// The new leaf's value is eta * base_weight. The children keep their slots, marked deleted
// (XGBoost's RegTree::ChangeToLeaf), so node ids and pred_leaf indices stay XGBoost's.
// Returns the number of nodes deleted.
int PruneTree(float gamma, int max_depth, float eta, RegTree* tree);

}  // namespace treering::booster
