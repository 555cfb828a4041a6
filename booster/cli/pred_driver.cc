// task=pred, for every learner: predictions of model_in for test:data, one value per line
// (%.9g, as XGBoost's setprecision(9)), K values per row for multi:softprob and multi-class
// margins. Distributed, a learner that predicts rows one by one (the trees) gets each rank's
// shard and the shards are gathered in rank order (= file order); otherwise every rank predicts
// every row. Either way rank 0 writes one file equal to a single process's. iteration_begin /
// iteration_end pick rounds as XGBoost's CLI does; ntree_limit (deprecated there, with a warning)
// sets iteration_end = ntree_limit / num_parallel_tree (trees per class -> rounds).
// pred_leaf / pred_contribs / pred_interactions write XGBoost's Predict output for those flags
// instead, flattened row-major, one value per line as XGBoost's CLI writes any prediction.
#include <algorithm>
#include <vector>

#include "booster/number_format.h"
#include "booster/tree/learner/gbtree_learner.h"
#include "output_check.h"
#include "rabit/rabit.h"
#include "task_support.h"
#include "tasks.h"

namespace treering::cli {
namespace {

booster::PredictOutput OutputOf(const CliOptions& options) {
  if (options.pred_leaf) return booster::PredictOutput::kLeaf;
  if (options.pred_contribs) return booster::PredictOutput::kContribs;
  if (options.pred_interactions) return booster::PredictOutput::kInteractions;
  return booster::PredictOutput::kValue;
}

}  // namespace

Status RunPredict(const CliOptions& options) {
  if (Status st = CheckOutputsWritable({{"name_pred", options.name_pred}}); !st.ok()) return st;
  auto learner = CreateLearnerFromConfig(options);
  if (!learner.ok()) return learner.status();
  booster::Learner& model = *learner.value();
  Status st = model.LoadModelFile(options.model_in, booster::ModelUse::kPredict);
  if (!st.ok()) return st;
  const bool shard = model.Traits().predicts_shards && rabit::IsDistributed();
  auto test = LoadMatrix("test:data", options.test_data, options.context, shard);
  if (!test.ok()) return test.status();
  booster::PredictOptions request{options.pred_margin, options.iteration_begin,
                                  options.iteration_end, OutputOf(options),
                                  options.approx_contribs};
  if (options.ntree_limit != 0) {
    const auto* trees = dynamic_cast<const booster::GBTreeLearner*>(&model);
    const int parallel = trees != nullptr ? trees->Model().num_parallel_tree : 1;
    request.iteration_end = options.ntree_limit / std::max(parallel, 1);
    LogRank0(options, 1,
             "WARNING: `ntree_limit` is deprecated, use `iteration_begin` and `iteration_end` "
             "instead.");
  }
  std::vector<float> predictions;
  st = model.Predict(&test.value(), request, &predictions);
  if (!st.ok()) return st.WithContext("test:data = " + options.test_data);
  // Shards are consecutive row ranges in rank order, so rank order is row order.
  if (shard) predictions = rabit::AllgatherV(predictions);
  st = WriteOutputRank0(options.name_pred, booster::PredictionLines(predictions));
  if (!st.ok()) return st.WithContext("name_pred");
  // XGBoost's message, printed once the file is complete so a failure stays one line.
  LogRank0(options, 1, "Writing prediction to " + options.name_pred);
  return Status::Ok();
}

}  // namespace treering::cli
