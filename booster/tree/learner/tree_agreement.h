// debug_synchronize's per-round check for trees (XGBoost's name for the same check): every rank
// compares the trees it grew this round with rank 0's, broadcast as JSON, and every rank fails
// with the same message on the first difference (docs/distributed.md).
#pragma once

#include "base/status.h"
#include "booster/tree_model.h"
#include "rabit/comm.h"

namespace treering::booster {

// Every rank must call it with its own model after the same round. Compares trees
// [first_tree, end) with rank 0's; on a difference every rank returns the same kInternal error
// naming the round, the first differing tree and the ranks that differ.
Status CheckTreesAgree(const GBTreeModel& model, int first_tree, int round, rabit::Comm& comm);

}  // namespace treering::booster
