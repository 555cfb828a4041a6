#include "booster/tree/learner/train_memory.h"

#include <vector>

#include "data/external_columns.h"

namespace treering::booster {

TrainMemoryPlan PlanTrainMemory(const data::DMatrix& train, const TreeParam& param,
                                const TrainMemoryInputs& in) {
  TrainMemoryPlan plan;
  if (!train.implicit_index) {
    // A CSR matrix (sparse, e.g. Fashion-MNIST): once binned, the bins carry the feature of
    // every entry (global bins rise within a row), so its ids go with its values; the exact
    // grower reads both every round.
    plan.drop_values = in.allow_drop && in.method != "exact" && !in.dart &&
                       in.num_parallel_tree == 1 && !in.has_trees && !in.update;
    return plan;
  }
  // The ids are read by the exact grower, the weighted sketch, the categorical cuts and the
  // sparse bins (chosen when the model has more features than the matrix).
  plan.restore_index = in.method == "exact" || !train.weight.empty() || param.HasCategorical() ||
                       in.num_feature != train.num_col;
  // Values are read again by dart's margins, by a forest's when its leaves are refreshed by
  // quantile (the round's trees are walked at its end), by trees continued from a model and
  // by process_type=update; else only the bins are (a hist forest's margins come from the row
  // partition, as a single tree's).
  plan.drop_values = in.allow_drop && !plan.restore_index && !in.dart &&
                     (in.num_parallel_tree == 1 || !in.leaf_quantile) && !in.has_trees &&
                     !in.update;
  return plan;
}

bool StreamableTrain(const TreeParam& param, const TrainMemoryInputs& in) {
  return in.allow_drop && (in.method == "hist" || in.method == "approx") && in.num_feature == 0 &&
         !param.HasCategorical() && !in.dart && in.num_parallel_tree == 1 && !in.has_trees &&
         !in.update;
}

void DropTrainValues(data::DMatrix* train) {
  // A streamed load's spill directory goes with the values (the bins are in memory).
  if (train->external && train->external->temporary()) train->external.reset();
  std::vector<float>().swap(train->value);
  std::vector<std::uint32_t>().swap(train->index);
  train->values_disposable = false;
}

}  // namespace treering::booster
