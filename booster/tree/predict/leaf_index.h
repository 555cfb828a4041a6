// pred_leaf: the leaf each row reaches in each tree, as XGBoost 1.7's CPUPredictor::PredictLeaf.
#pragma once

#include <vector>

#include "booster/tree_model.h"
#include "data/dmatrix.h"

namespace treering::booster {

// Row-major rows x tree_end: the node id (XGBoost's numbering, the model file's) of the leaf of
// trees [0, tree_end) in model order. The model's split features are below model.num_feature
// (the model readers check it). Parallel over rows.
void PredictLeafIndices(const GBTreeModel& model, const data::DMatrix& dm, int tree_end,
                        int nthread, std::vector<float>* out);

}  // namespace treering::booster
