// XGBoost 1.7's refresh updater (src/tree/updater_refresh.cc): keeps a tree's splits and
// recomputes its statistics from new data and gradients (process_type=update,
// updater=refresh), e.g. to adapt a model's leaves to newer data.
#pragma once

#include <vector>

#include "booster/objective.h"
#include "booster/tree_model.h"
#include "booster/tree_param.h"
#include "data/dmatrix.h"
#include "rabit/comm.h"

namespace treering::booster {

struct RefreshInput {
  const data::DMatrix* dm;
  const std::vector<GradientPair>* gpair;  // one per row of dm (one output group's)
  bool refresh_leaf = true;                // leaves take eta * the new weight
};

// For every node of `trees` (one round's trees of one group): the gradient sums of the rows
// that pass through it (summed over the ranks of `comm`), then base_weight and sum_hess from
// them, loss_chg of each split recomputed, and with refresh_leaf each leaf set to
// eta / trees.size() * base_weight (XGBoost rescales learning_rate by the trees it updates at
// once). Sums are taken over fixed row chunks and added in chunk order, so the result does not
// depend on the thread count.
void RefreshTrees(const TreeParam& param, const RefreshInput& in, int nthread, rabit::Comm* comm,
                  const std::vector<RegTree*>& trees);

}  // namespace treering::booster
