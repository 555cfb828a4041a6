#include "booster/tree/predict/leaf_index.h"

#include <cstdint>

#include "base/parallel_for.h"
#include "booster/tree/hist/dense_row.h"
#include "booster/work_split.h"

namespace treering::booster {

void PredictLeafIndices(const GBTreeModel& model, const data::DMatrix& dm, int tree_end,
                        int nthread, std::vector<float>* out) {
  const std::size_t rows = dm.NumRows();
  const std::size_t trees = static_cast<std::size_t>(tree_end);
  out->assign(rows * trees, 0.0f);
  ParallelForBlocks(static_cast<std::int64_t>(rows), ThreadsFor(rows * trees * 8, nthread),
                    [&](int, std::int64_t begin, std::int64_t end) {
                      DenseRow row(model.num_feature);
                      for (std::int64_t r = begin; r < end; ++r) {
                        row.Fill(dm, r);
                        for (std::size_t t = 0; t < trees; ++t) {
                          const RegTree& tree = model.trees[t];
                          int node = 0;
                          while (!tree.IsLeaf(node)) node = NextNode(tree, node, row.Values());
                          (*out)[r * trees + t] = static_cast<float>(node);
                        }
                        row.Drop(dm, r);
                      }
                    });
}

}  // namespace treering::booster
