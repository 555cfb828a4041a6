// MlpLearner's files and predictions: model_in, the .mlp bytes it saves (also the rabit
// checkpoint), and forward passes over whole matrices.
#include <optional>

#include "booster/mlp/mlp_learner.h"
#include "booster/mlp/predictor.h"

namespace treering::booster::mlp {

std::string WidthsText(const std::vector<int>& widths) {
  std::string s;
  for (int w : widths) {
    if (!s.empty()) s += '-';
    s += std::to_string(w);
  }
  return s;
}

// Prediction takes the file's objective and architecture whatever the params say; training
// goes on only from a snapshot of the network the params describe.
Status MlpLearner::LoadModelFile(const std::string& path, ModelUse use) {
  auto model = mlp::LoadModelFile(path);
  if (!model.ok()) return model.status().WithContext("model_in");
  if (use == ModelUse::kContinueTraining) {
    if (Status st = CheckResumable(model.value(), path); !st.ok()) return st;
  } else {
    auto objective = MakeObjective(model->objective, model->num_class);
    if (!objective.ok()) return objective.status().WithContext("model_in = " + path);
    objective_ = std::move(objective.value());
  }
  loaded_ = std::make_unique<MlpModel>(std::move(model.value()));
  return Status::Ok();
}

Status MlpLearner::CheckResumable(const MlpModel& m, const std::string& path) const {
  const std::vector<int> hidden(m.widths.begin() + 1, m.widths.end() - 1);
  auto mismatch = [&](const std::string& key, const std::string& file_value) {
    return Status::InvalidInput("model_in = " + path + ": " + key + " differs from " +
                                "the model's (" + file_value + ")");
  };
  if (hidden != param_.hidden_layers) return mismatch("hidden_layers", WidthsText(hidden));
  if (m.activation != param_.activation)
    return mismatch("activation", ActivationName(m.activation));
  if (m.objective != param_.objective) return mismatch("objective", m.objective);
  if (m.widths.back() != param_.NumOutputs())
    return mismatch("num_class", std::to_string(m.num_class));
  if (m.optimizer != param_.optimizer) return mismatch("optimizer", OptimizerName(m.optimizer));
  if (m.seed != param_.seed) return mismatch("seed", std::to_string(m.seed));
  return Status::Ok();
}

MlpModel MlpLearner::Snapshot() const {
  MlpModel m;
  m.widths = trainer_->arch().widths();
  m.activation = param_.activation;
  m.objective = param_.objective;
  m.num_class = param_.num_class;
  m.optimizer = param_.optimizer;
  m.seed = param_.seed;
  m.scaling = scaling_;
  m.state = trainer_->State();
  return m;
}

Result<std::string> MlpLearner::SerializeModel() const {
  if (!trainer_) return Status::Internal("SerializeModel before SetTrainData");
  return mlp::SerializeModel(Snapshot());
}

Result<std::string> MlpLearner::DumpModelFile(const std::string& /*path*/,
                                              const DumpSpec& /*spec*/) const {
  return Status::InvalidInput("config: task=dump is for tree models; booster=mlp has none");
}

// The whole model file's bytes (parameters, optimizer state, counters), so a worker restarted
// by the launcher takes exactly the survivors' steps.
void MlpLearner::SaveCheckpoint(std::string* out) const {
  out->append(mlp::SerializeModel(Snapshot()));
}

Status MlpLearner::RestoreCheckpoint(std::string_view bytes) {
  auto model = ParseModel(std::string(bytes), "rabit checkpoint");
  if (!model.ok()) return model.status();
  trainer_->Restore(model->state);
  return Status::Ok();
}

Status MlpLearner::Predict(data::DMatrix* dm, const PredictOptions& options,
                           std::vector<float>* out) const {
  if (options.iteration_begin != 0 || options.iteration_end != 0) {
    return Status::InvalidInput(
        "config: iteration_begin / iteration_end / ntree_limit select trees; booster=mlp has none");
  }
  if (options.output != PredictOutput::kValue) {
    return Status::InvalidInput(
        "config: pred_leaf / pred_contribs / pred_interactions explain trees; booster=mlp has "
        "none");
  }
  std::optional<MlpModel> trained;
  if (trainer_) trained = Snapshot();
  if (!trained && !loaded_) return Status::Internal("Predict without a model");
  const MlpModel& m = trained ? *trained : *loaded_;
  Status st = CheckFeatureRange(*dm, m.widths.front(), "");
  if (!st.ok()) return st;
  m.scaling.ScaleRows(dm, ctx_.Threads());
  const Architecture arch(m.widths, m.activation);
  *out = PredictLogits(arch, m.state.params, m.scaling, *dm, ctx_.Threads());
  if (!options.output_margin) objective_->PredTransform(out, ctx_);
  return Status::Ok();
}

}  // namespace treering::booster::mlp
