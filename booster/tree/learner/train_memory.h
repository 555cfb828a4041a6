// The training matrix's memory in the histogram learner: a dense matrix loaded without its
// feature ids (DMatrix::implicit_index) trains as it is where nothing reads the ids, and its
// feature values are dropped once the bins exist when the caller allows it (the CLI) and
// nothing reads them again; a sparse (CSR) matrix's values and ids are freed the same way
// (docs/data.md, "Memory").
#pragma once

#include <cstdint>
#include <string>

#include "booster/tree_param.h"
#include "data/dmatrix.h"

namespace treering::booster {

// What the training setup does with the matrix; decided before the cuts are built.
struct TrainMemoryPlan {
  bool restore_index = false;  // ids needed: write them back (data::RestoreDenseIndex)
  bool drop_values = false;    // values unused after binning: free them then
};

struct TrainMemoryInputs {
  bool allow_drop = false;  // the caller reads no feature value of the matrix afterwards
  std::string method;       // resolved tree_method
  std::uint64_t num_feature = 0;
  bool dart = false;
  int num_parallel_tree = 1;
  bool has_trees = false;  // a model to continue from: its trees are applied to the rows
  bool update = false;     // process_type=update reads the rows again every round
  // The objective refreshes leaves by quantile: a forest's round is then walked over the values.
  bool leaf_quantile = false;
};

TrainMemoryPlan PlanTrainMemory(const data::DMatrix& train, const TreeParam& param,
                                const TrainMemoryInputs& in);

// Whether the CLI may stream a dense training load (data::LoadOptions::stream_dense), decided
// before the data are read: only where PlanTrainMemory would drop the values of any dense
// matrix and the external-memory sketch serves (hist/approx set explicitly, since auto may
// resolve to exact by the row count; no categorical features, dart, forest, model to continue,
// update, or a model's feature count, which the per-column sketch cannot take).
// `in.num_feature` is the model's feature count before the data (0: from the data).
bool StreamableTrain(const TreeParam& param, const TrainMemoryInputs& in);

// Frees the values and the feature ids (keeping rows, labels, weights): the learner's margins
// of this matrix come from the row partition from now on, and the bins stand for the entries.
void DropTrainValues(data::DMatrix* train);

}  // namespace treering::booster
