// task=pred: predictions of model_in for test:data, one value per line (%.9g, as XGBoost's
// setprecision(9)), K values per row for multi:softprob and multi-class margins. Distributed,
// each rank predicts its shard of the rows and the shards are gathered in rank order (= file
// order) so rank 0 writes one file equal to a single process's.
#include <cstdio>
#include <vector>

#include "booster/number_format.h"
#include "rabit/rabit.h"
#include "task_support.h"
#include "tasks.h"

namespace treering::cli {
Status RunPredict(const CliOptions& options) {
  auto model = LoadModelIn(options.model_in);
  if (!model.ok()) return model.status();
  auto test = LoadMatrix("test:data", options.test_data, options.nthread, /*shard=*/true);
  if (!test.ok()) return test.status();
  auto learner = CreateLearner(options);
  if (!learner.ok()) return learner.status();
  Status st = learner.value()->LoadModel(std::move(model.value()));
  if (!st.ok()) return st.WithContext("model_in = " + options.model_in);
  std::vector<float> predictions;
  st = learner.value()->Predict(test.value(), options.pred_margin, &predictions);
  if (!st.ok()) return st;
  // Shards are consecutive row ranges in rank order, so rank order is row order.
  if (rabit::IsDistributed()) predictions = rabit::AllgatherV(predictions);
  st = WriteOutputRank0(options.name_pred, booster::PredictionLines(predictions));
  if (!st.ok()) return st.WithContext("name_pred");
  // XGBoost's message, printed once the file is complete so a failure stays one line.
  LogRank0(options, 1, "Writing prediction to " + options.name_pred);
  return Status::Ok();
}

}  // namespace treering::cli
