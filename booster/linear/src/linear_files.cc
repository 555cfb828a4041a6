// LinearLearner's files (XGBoost 1.7's three formats through booster/model), checkpoints, the
// driver's round loop, and what the C API adds.
#include <cmath>

#include "booster/learner_support.h"
#include "booster/linear/linear_learner.h"
#include "booster/model_dump.h"
#include "booster/model_formats.h"
#include "booster/model_io.h"

namespace treering::booster::linear {
Status LinearLearner::LoadModelFile(const std::string& path, ModelUse /*use*/) {
  auto model = LoadModelAnyFormat(path);
  if (!model.ok()) return model.status().WithContext("model_in");
  return LoadModel(std::move(model.value())).WithContext("model_in = " + path);
}

Result<std::string> LinearLearner::SerializeModel() const {
  return ModelToJson(WithAttributes(model_, attributes_));
}

Result<std::string> LinearLearner::SerializeModelFile(const std::string& path) const {
  return SerializeModelAs(WithAttributes(model_, attributes_), ModelFormatForPath(path));
}

void LinearLearner::SetAttributes(const std::map<std::string, std::string>& attributes) {
  attributes_ = attributes;
}

Result<std::string> LinearLearner::DumpModelFile(const std::string& path,
                                                 const DumpSpec& spec) const {
  auto model = LoadModelAnyFormat(path);
  if (!model.ok()) return model.status().WithContext("model_in");
  return DumpModel(model.value(), spec);
}

// The model as JSON: float32 weights round-trip exactly, so a restarted rank continues the
// same steps (the shuffle/random stream restarts from the seed: those selectors do not).
void LinearLearner::SaveCheckpoint(std::string* out) const {
  auto json = ModelToJson(model_);
  if (json.ok()) out->append(json.value());
}

Status LinearLearner::RestoreCheckpoint(std::string_view bytes) {
  auto model = ModelFromJson(bytes, "the checkpoint received from a surviving worker");
  if (!model.ok()) return model.status();
  return LoadModel(std::move(model.value()));
}

RoundPlan LinearLearner::PlanRounds(int num_round, int save_period) const {
  return RoundPlan{model_.linear_rounds, num_round, save_period};
}

// One allreduce of the weights' sum of squares' bits would do; comparing the weight vector
// itself is as cheap here (a few hundred floats), and names the first difference.
Status LinearLearner::CheckRanksAgree(int iter, bool requested) {
  if (!requested || !comm_->IsDistributed()) return Status::Ok();
  std::vector<float> root = model_.linear_weights;
  comm_->Broadcast(&root, 0);
  std::int32_t differ = root != model_.linear_weights ? 1 : 0;
  comm_->Allreduce<rabit::op::Max>(&differ, 1);
  if (differ != 0) {
    return Status::Internal("debug_synchronize: after round " + std::to_string(iter) +
                            " the ranks hold different gblinear weights");
  }
  return Status::Ok();
}

std::vector<LogLine> LinearLearner::Lines(TrainStage stage, const TrainProgress& progress) const {
  (void)progress;
  if (stage != TrainStage::kReady) return {};
  return {{1, "gblinear: " + std::to_string(model_.num_feature) + " features, updater " +
                  param_.updater + ", feature_selector " + SelectorName(param_.feature_selector)}};
}

Status LinearLearner::LoadModelBytes(std::string_view bytes, const std::string& source) {
  auto model = ParseModel(bytes, source);
  if (!model.ok()) return model.status();
  return LoadModel(std::move(model.value()));
}

ModelInfo LinearLearner::GetModelInfo() const { return ModelInfoOf(model_, attributes_); }

void LinearLearner::SetModelInfo(const ModelInfo& info) {
  SetModelInfoOf(info, &model_, &attributes_);
}

Status LinearLearner::BoostFromGradients(const std::vector<float>& grad,
                                         const std::vector<float>& hess) {
  if (Status s = CheckCustomGradients(train_, objective_->NumGroups(), grad, hess); !s.ok()) {
    return s;
  }
  gpair_.resize(grad.size());
  for (std::size_t i = 0; i < grad.size(); ++i) gpair_[i] = GradientPair{grad[i], hess[i]};
  Boost();
  return Status::Ok();
}

Result<std::vector<EvalResult>> LinearLearner::EvalOn(const std::vector<NamedMatrix>& sets) {
  if (metrics_.empty()) {
    if (Status s = ResolveMetrics(); !s.ok()) return s;
  }
  std::vector<EvalResult> results;
  for (const NamedMatrix& set : sets) {
    if (Status s = CheckData(*set.dm, "eval set " + set.name); !s.ok()) return s;
    auto r = Evaluate(set.name, *set.dm);
    if (!r.ok()) return r.status();
    results.insert(results.end(), r->begin(), r->end());
  }
  return results;
}

// eta, lambda and alpha act from the next round on; the updater keeps a copy of the params.
Result<bool> LinearLearner::TuneInPlace(const std::string& key, const std::string& value) {
  if (key != "eta" && key != "learning_rate") return false;
  LinearParam next = param_;
  if (Status s = LinearParam::Table().Set(&next, key, value); !s.ok()) return s;
  param_ = next;
  if (updater_) updater_ = std::make_unique<CoordinateUpdater>(param_, &rng_);
  return true;
}

}  // namespace treering::booster::linear
