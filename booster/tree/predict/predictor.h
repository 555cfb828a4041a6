// Prediction on raw rows: walks trees (go left iff value < split_cond, missing -> default
// direction) and adds leaf values to margins. Parallel over rows; each row's sum is taken in
// tree order, so results do not depend on the thread count.
#pragma once

#include <vector>

#include "booster/tree_model.h"
#include "data/dmatrix.h"

namespace treering::booster {

// Adds the outputs of trees [tree_begin, tree_end) to `margins` (NumGroups() values per row,
// row-major, already sized and holding the starting margins), each multiplied by its weight:
// tree_weights[t] if given (DART's training margins pass 0 for a dropped tree), else the model's
// weight_drop for a dart model, else 1. A tree beyond the weights counts with weight 1.
void AddTreeOutputs(const GBTreeModel& model, const data::DMatrix& dm, int tree_begin, int tree_end,
                    int nthread, std::vector<float>* margins,
                    const std::vector<float>* tree_weights = nullptr);

// The leaf a dense feature vector (NaN = missing) reaches in `tree`.
int LeafOf(const RegTree& tree, const std::vector<float>& features);

}  // namespace treering::booster
