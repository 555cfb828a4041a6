// LinearLearner: XGBoost 1.7's linear booster (booster=gblinear) behind the Learner interface
// (booster/learner.h). A round computes every row's margin from the weights, the objective's
// gradients, then one CoordinateUpdater round; the model is a GBTreeModel with `linear` set
// (booster/tree_model.h), so the three XGBoost model formats, the C API's model handling and
// the dumps are booster/model's.
#pragma once

#include <map>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/context.h"
#include "booster/learner.h"
#include "booster/learner_param.h"
#include "booster/linear/coordinate_updater.h"
#include "booster/linear/feature_columns.h"
#include "booster/linear/linear_param.h"
#include "booster/metric.h"
#include "booster/objective.h"
#include "booster/tree_model.h"
#include "rabit/comm.h"

namespace treering::booster::linear {

class LinearLearner : public Learner {
 public:
  // LearnerParam's keys and LinearParam's.
  static const std::vector<ParamDoc>& Params();
  // Errors name the key; `comm` must outlive the learner.
  static Result<std::unique_ptr<LinearLearner>> Create(
      const std::vector<std::pair<std::string, std::string>>& params, const Context& ctx,
      rabit::Comm* comm);
  LinearLearner(LearnerParam lparam, LinearParam param, std::unique_ptr<Objective> objective,
                const Context& ctx, rabit::Comm* comm);

  Status LoadModel(GBTreeModel model);
  const GBTreeModel& Model() const { return model_; }

  // Rows are predicted alone, so ranks may predict their shards.
  LearnerTraits Traits() const override { return {"model", true, true}; }

  // Training and prediction (linear_learner.cc).
  Status SetTrainData(data::DMatrix* train) override;
  Status AddEvalSet(const std::string& name, data::DMatrix* dm) override;
  Status UpdateOneIter(int iter) override;
  Result<std::vector<EvalResult>> EvalOneIter(int iter) override;
  RoundCost LastRoundCost() const override { return round_cost_; }
  TimingReport Timing() const override { return timing_; }
  Status Predict(data::DMatrix* dm, const PredictOptions& options,
                 std::vector<float>* out) const override;
  Result<std::vector<FeatureScore>> FeatureImportance(const std::string& type) const override;

  // Files, checkpoints, the driver's loop and the C API's calls (linear_files.cc).
  Status LoadModelFile(const std::string& path, ModelUse use) override;
  Result<std::string> SerializeModel() const override;
  Result<std::string> SerializeModelFile(const std::string& path) const override;
  void SetAttributes(const std::map<std::string, std::string>& attributes) override;
  int RoundsInModel() const override { return model_.linear_rounds; }
  Result<std::string> DumpModelFile(const std::string& path, const DumpSpec& spec) const override;
  void SaveCheckpoint(std::string* out) const override;
  Status RestoreCheckpoint(std::string_view bytes) override;
  RoundPlan PlanRounds(int num_round, int save_period) const override;
  Status CheckRanksAgree(int iter, bool requested) override;
  std::vector<LogLine> Lines(TrainStage stage, const TrainProgress& progress) const override;
  Status LoadModelBytes(std::string_view bytes, const std::string& source) override;
  // XGBoost 1.7's GBLinear has no Slice: refused with its message.
  Result<std::string> SliceModel(int, int, int) const override {
    return Status::InvalidInput("Slice is not supported by current booster.");
  }
  std::uint64_t NumFeatures() const override { return model_.num_feature; }
  ModelInfo GetModelInfo() const override;
  void SetModelInfo(const ModelInfo& info) override;
  Status BoostFromGradients(const std::vector<float>& grad,
                            const std::vector<float>& hess) override;
  Result<std::vector<EvalResult>> EvalOn(const std::vector<NamedMatrix>& sets) override;
  Result<bool> TuneInPlace(const std::string& key, const std::string& value) override;

 private:
  Status CheckData(const data::DMatrix& dm, const std::string& what) const;
  Status ResolveMetrics();
  // base_margin (or base_score's margin) + bias + w . x per row and group (XGBoost's Pred).
  std::vector<float> Margins(const data::DMatrix& dm) const;
  std::vector<float> TrainMargins() const;
  Result<std::vector<EvalResult>> Evaluate(const std::string& name, const data::DMatrix& dm);
  // One round from gradients in gpair_ (XGBoost's GBLinear::DoBoost).
  void Boost();
  bool Converged();
  void Contributions(const data::DMatrix& dm, std::vector<float>* out) const;

  LearnerParam lparam_;
  LinearParam param_;
  std::unique_ptr<Objective> objective_;
  Context ctx_;
  rabit::Comm* comm_;
  std::vector<std::unique_ptr<Metric>> metrics_;
  GBTreeModel model_;
  std::map<std::string, std::string> attributes_;
  float base_margin_ = 0.0f;
  std::mt19937 rng_;  // shuffle and random selectors (XGBoost's GlobalRandom, seeded by seed)
  std::unique_ptr<CoordinateUpdater> updater_;
  const data::DMatrix* train_ = nullptr;
  FeatureColumns columns_;
  double sum_weight_ = 0.0;
  std::vector<GradientPair> gpair_;
  std::vector<float> previous_weights_;  // tolerance: the weights before the last round
  bool converged_ = false;
  std::vector<std::pair<std::string, const data::DMatrix*>> eval_sets_;
  TimingReport timing_;
  RoundCost round_cost_;
};

}  // namespace treering::booster::linear
