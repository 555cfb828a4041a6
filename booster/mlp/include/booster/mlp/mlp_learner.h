// MlpLearner: the neural learner (booster=mlp) behind the Learner interface (booster/learner.h).
// One UpdateOneIter is one epoch of synchronous data-parallel SGD (Trainer); the model file is
// the .mlp format (model_file.h), which is also the rabit checkpoint; prediction is a forward
// pass (predictor.h).
//
// The learner standardises its inputs in place: SetTrainData computes the scaling from the
// training data (or takes model_in's) and rewrites the training, eval and prediction matrices.
// The .mlp file has no attributes, so early stopping is not offered.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/context.h"
#include "booster/learner.h"
#include "booster/metric.h"
#include "booster/mlp/model_file.h"
#include "booster/mlp/trainer.h"
#include "booster/objective.h"
#include "data/dmatrix.h"
#include "rabit/comm.h"

namespace treering::booster::mlp {

class MlpLearner : public Learner {
 public:
  // Every key Create accepts (MlpParam's table), with default and meaning.
  static const std::vector<ParamDoc>& Params();
  // params: MlpParam's keys; errors name the key ("parameter batch_size: ..."). ctx: the job's
  // threads and seed (the seed becomes MlpParam::seed); the learner keeps a copy. `comm` must
  // outlive the learner.
  static Result<std::unique_ptr<MlpLearner>> Create(
      const std::vector<std::pair<std::string, std::string>>& params, const Context& ctx,
      rabit::Comm* comm);

  MlpLearner(MlpParam param, std::unique_ptr<Objective> objective,
             std::vector<std::unique_ptr<Metric>> metrics, const Context& ctx, rabit::Comm* comm);

  // The .mlp file has no attributes. Every rank predicts all rows: the forward pass runs in
  // chunks of rows from the first, and a row in another chunk may round differently in BLAS.
  LearnerTraits Traits() const override { return {"mlp", false, false}; }

  // Learner: epochs and metrics (mlp_learner.cc).
  int RoundsInModel() const override;
  RoundPlan PlanRounds(int num_round, int save_period) const override;
  Status SetTrainData(data::DMatrix* train) override;
  Status AddEvalSet(const std::string& name, data::DMatrix* dm) override;
  Status UpdateOneIter(int iter) override;
  Result<std::vector<EvalResult>> EvalOneIter(int iter) override;
  RoundCost LastRoundCost() const override;
  TimingReport Timing() const override { return timing_; }
  Status CheckRanksAgree(int iter, bool requested) override;
  // The start-up, per-epoch and checksum lines (mlp_progress.cc).
  std::vector<LogLine> Lines(TrainStage stage, const TrainProgress& progress) const override;

  // Learner: the model file, which is also the rabit checkpoint, and predictions
  // (mlp_learner_io.cc).
  Status LoadModelFile(const std::string& path, ModelUse use) override;
  void SaveCheckpoint(std::string* out) const override;
  Status RestoreCheckpoint(std::string_view bytes) override;
  Result<std::string> SerializeModel() const override;
  void SetAttributes(const std::map<std::string, std::string>& /*attributes*/) override {}
  Result<std::string> DumpModelFile(const std::string& path, const DumpSpec& spec) const override;
  Status Predict(data::DMatrix* dm, const PredictOptions& options,
                 std::vector<float>* out) const override;

 private:
  struct EvalSet {
    std::string name;
    const data::DMatrix* matrix;
  };
  static Result<std::unique_ptr<Objective>> MakeObjective(const std::string& name, int num_class);
  // model_in must be the same network trained the same way; anything else is a user error.
  Status CheckResumable(const MlpModel& m, const std::string& path) const;
  MlpModel Snapshot() const;  // the model file's content now

  MlpParam param_;
  std::unique_ptr<Objective> objective_;
  std::vector<std::unique_ptr<Metric>> metrics_;
  Context ctx_;  // threads for every pass (ctx_.Threads())
  rabit::Comm* comm_;
  std::unique_ptr<MlpModel> loaded_;  // model_in
  const data::DMatrix* train_ = nullptr;
  std::vector<EvalSet> evals_;
  InputScaling scaling_;
  std::unique_ptr<Trainer> trainer_;
  EpochReport last_epoch_;   // the last UpdateOneIter's
  double last_epoch_s_ = 0;  // its wall time
  TimingReport timing_;
};

// "784-256-10": the layer widths as the start-up line and model_in errors print them.
std::string WidthsText(const std::vector<int>& widths);

}  // namespace treering::booster::mlp
