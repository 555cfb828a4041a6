#include "booster/mlp/mlp_task.h"

#include <cstdio>
#include <filesystem>
#include <memory>

#include "booster/atomic_file.h"
#include "booster/metric.h"
#include "booster/mlp/model_file.h"
#include "booster/mlp/predictor.h"
#include "booster/mlp/trainer.h"
#include "booster/number_format.h"
#include "booster/objective.h"
#include "data/load.h"
#include "layer_kernels.h"
#include "rabit/rabit.h"
#include "train_session.h"

namespace treering::booster::mlp {

Result<data::DMatrix> LoadShard(const std::string& key, const std::string& uri, int nthread,
                                bool shard) {
  data::LoadOptions o;
  o.nthread = nthread;
  if (shard) {
    o.part = rabit::GetRank();
    o.nparts = rabit::GetWorldSize();
  }
  auto m = data::Load(uri, o);
  if (!m.ok()) return m.status().WithContext("cannot load " + key + " = " + uri);
  return m;
}

void LogRank0(const MlpTaskOptions& o, int level, const std::string& line) {
  if (rabit::GetRank() == 0 && o.verbosity >= level) std::fprintf(stderr, "%s\n", line.c_str());
}

Result<std::unique_ptr<Objective>> MakeObjective(const std::string& name, int num_class) {
  ObjectiveConfig config;
  config.name = name;
  config.num_class = num_class;
  return Objective::Create(config);
}

Status RunMlpTrain(const MlpParam& param, const MlpTaskOptions& options) {
  kernels::UseSingleThreadedBlas();
  TrainSession session(param, options);
  Status st = session.Load();
  if (st.ok()) st = session.Prepare();
  if (st.ok()) st = session.Train();
  return st;
}

Status RunMlpPredict(const MlpParam& param, const MlpTaskOptions& options) {
  (void)param;  // the model file carries everything prediction needs
  kernels::UseSingleThreadedBlas();
  auto model = LoadModelFile(options.model_in);
  if (!model.ok()) return model.status().WithContext("model_in");
  // Every rank reads all rows: the prediction file is one file, written by rank 0.
  auto test = LoadShard("test:data", options.test_data, options.nthread, /*shard=*/false);
  if (!test.ok()) return test.status();
  Status st =
      CheckFeatureRange(test.value(), model->widths.front(), "test:data = " + options.test_data);
  if (!st.ok()) return st;
  auto objective = MakeObjective(model->objective, model->num_class);
  if (!objective.ok()) return objective.status().WithContext("model_in = " + options.model_in);
  model->scaling.ScaleRows(&test.value(), options.nthread);
  const Architecture arch(model->widths, model->activation);
  std::vector<float> values =
      PredictLogits(arch, model->state.params, model->scaling, test.value(), options.nthread);
  if (!options.pred_margin) objective.value()->PredTransform(&values, options.nthread);
  if (rabit::GetRank() == 0) {
    const std::string text = PredictionLines(values);
    if (options.name_pred == "stdout") {
      std::fwrite(text.data(), 1, text.size(), stdout);
    } else {
      st = WriteFileAtomic(options.name_pred, text);
      if (!st.ok()) return st.WithContext("name_pred");
    }
  }
  LogRank0(options, 1, "Writing prediction to " + options.name_pred);
  return Status::Ok();
}

}  // namespace treering::booster::mlp
