// MlpLearner: creation, training data and eval sets, one epoch per round, metrics.
#include "booster/mlp/mlp_learner.h"

#include <algorithm>
#include <chrono>

#include "booster/mlp/predictor.h"
#include "layer_kernels.h"
#include "mlp_budget.h"

namespace treering::booster::mlp {
namespace {

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

}  // namespace

const std::vector<ParamDoc>& MlpLearner::Params() { return MlpParam::Params(); }

Result<std::unique_ptr<MlpLearner>> MlpLearner::Create(
    const std::vector<std::pair<std::string, std::string>>& params, const Context& ctx,
    rabit::Comm* comm) {
  auto param = MlpParam::Parse(params);
  if (!param.ok()) return param.status();
  // The initial weights and the shuffles are functions of the job's seed (the Context's key).
  param->seed = ctx.seed;
  kernels::UseSingleThreadedBlas();
  auto objective = MakeObjective(param->objective, param->num_class);
  if (!objective.ok()) return objective.status();
  std::vector<std::string> names = param->eval_metrics;
  if (names.empty()) names.push_back(objective.value()->DefaultMetric());
  std::vector<std::unique_ptr<Metric>> metrics;
  for (const std::string& n : names) {
    auto metric = Metric::Create(n);
    // The message names eval_metric; the key lets the CLI point at its config line.
    if (!metric.ok()) return metric.status().WithKey("eval_metric");
    metrics.push_back(std::move(metric.value()));
  }
  return std::make_unique<MlpLearner>(std::move(param.value()), std::move(objective.value()),
                                      std::move(metrics), ctx, comm);
}

MlpLearner::MlpLearner(MlpParam param, std::unique_ptr<Objective> objective,
                       std::vector<std::unique_ptr<Metric>> metrics, const Context& ctx,
                       rabit::Comm* comm)
    : param_(std::move(param)),
      objective_(std::move(objective)),
      metrics_(std::move(metrics)),
      ctx_(ctx),
      comm_(comm) {}

Result<std::unique_ptr<Objective>> MlpLearner::MakeObjective(const std::string& name,
                                                             int num_class) {
  ObjectiveConfig config;
  config.name = name;
  config.num_class = num_class;
  auto objective = Objective::Create(config);
  // The network computes its own gradients: num_class > 1 needs a multi: objective here.
  if (objective.ok()) {
    if (Status s = objective.value()->CanComputeGradients(); !s.ok()) return s;
  }
  return objective;
}

int MlpLearner::RoundsInModel() const {
  if (trainer_) return trainer_->epochs_done();
  return loaded_ ? loaded_->state.epochs_done : 0;
}

// `epochs` is the total: a run from a snapshot goes on to it, numbering on from the snapshot's
// epochs (so its metric lines and snapshot names are those of the uninterrupted run).
RoundPlan MlpLearner::PlanRounds(int /*num_round*/, int /*save_period*/) const {
  const int done = RoundsInModel();
  return RoundPlan{done, std::max(0, param_.epochs - done), param_.save_every};
}

// Inputs and scaling are global (allreduce over the ranks' rows) or model_in's; then rank 0's
// initial weights (or model_in's state) are broadcast and the ranks agree on the epoch's steps.
Status MlpLearner::SetTrainData(data::DMatrix* train) {
  const auto start = std::chrono::steady_clock::now();
  Status st = objective_->CheckLabels(LabelView{&train->label, &train->weight});
  if (!st.ok()) return st;
  std::uint64_t inputs = train->num_col;
  comm_->Allreduce<rabit::op::Max>(&inputs, 1);
  if (loaded_) inputs = static_cast<std::uint64_t>(loaded_->widths.front());
  if (inputs == 0) return Status::InvalidInput("no features");
  st = CheckNetworkBudget(inputs, param_, ctx_, comm_);
  if (!st.ok()) return st;
  const int num_inputs = static_cast<int>(inputs);
  st = CheckFeatureRange(*train, num_inputs, "");
  if (!st.ok()) return st;
  scaling_ =
      loaded_ ? loaded_->scaling : ComputeScaling(*train, num_inputs, param_.standardize, comm_);
  scaling_.ScaleRows(train, ctx_.Threads());
  std::vector<int> widths{num_inputs};
  widths.insert(widths.end(), param_.hidden_layers.begin(), param_.hidden_layers.end());
  widths.push_back(param_.NumOutputs());
  trainer_ =
      std::make_unique<Trainer>(param_, Architecture(widths, param_.activation), ctx_, comm_);
  trainer_->Start(loaded_ ? &loaded_->state : nullptr);
  trainer_->SetTrainShard(train);
  train_ = train;
  timing_.setup_s += Seconds(start);
  return Status::Ok();
}

// Errors name the set by its config key; "train" is the training data itself (not rescaled).
Status MlpLearner::AddEvalSet(const std::string& name, data::DMatrix* dm) {
  if (!trainer_) return Status::Internal("AddEvalSet before SetTrainData");
  const std::string key = name == "train" ? "data" : "eval[" + name + "]";
  Status st = objective_->CheckLabels(LabelView{&dm->label, &dm->weight});
  if (!st.ok()) return st.WithContext(key);
  st = CheckFeatureRange(*dm, trainer_->arch().NumInputs(), key);
  if (!st.ok()) return st;
  if (dm != train_) scaling_.ScaleRows(dm, ctx_.Threads());
  evals_.push_back({name, dm});
  return Status::Ok();
}

Status MlpLearner::UpdateOneIter(int /*iter*/) {
  if (!trainer_) return Status::Internal("UpdateOneIter before SetTrainData");
  const auto start = std::chrono::steady_clock::now();
  last_epoch_ = trainer_->RunEpoch(scaling_);
  last_epoch_s_ = Seconds(start);
  timing_.boost_s += last_epoch_s_;
  return Status::Ok();
}

Result<std::vector<EvalResult>> MlpLearner::EvalOneIter(int /*iter*/) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<EvalResult> results;
  const int groups = trainer_->arch().NumOutputs();
  for (const EvalSet& e : evals_) {
    std::vector<float> preds =
        PredictLogits(trainer_->arch(), trainer_->params(), scaling_, *e.matrix, ctx_.Threads());
    objective_->EvalTransform(&preds, ctx_);
    for (const auto& metric : metrics_) {
      auto v = metric->Evaluate(preds, groups, LabelView{&e.matrix->label, &e.matrix->weight}, ctx_,
                                *comm_);
      if (!v.ok()) return v.status();
      results.push_back({e.name + "-" + metric->Name(), v.value()});
    }
  }
  timing_.eval_s += Seconds(start);
  return results;
}

// The gradient allreduces only: the sync-SGD model's T_sync (metrics are not part of a step).
RoundCost MlpLearner::LastRoundCost() const {
  const EpochReport& r = last_epoch_;
  return RoundCost{r.compute_s, r.sync_s, r.payload_bytes, r.calls};
}

// One 16-byte allreduce of the parameter checksum: cheap enough for every epoch.
Status MlpLearner::CheckRanksAgree(int iter, bool /*requested*/) {
  if (trainer_->RanksAgree()) return Status::Ok();
  return Status::Internal("ranks' parameters differ after epoch " + std::to_string(iter) +
                          " (checksum mismatch): synchronous SGD lost sync");
}

}  // namespace treering::booster::mlp
