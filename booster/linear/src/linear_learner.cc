#include "booster/linear/linear_learner.h"

#include <chrono>
#include <cmath>
#include <cstdlib>

#include "base/parallel_for.h"
#include "booster/learner_support.h"
#include "booster/number_format.h"
#include "booster/work_split.h"

namespace treering::booster::linear {
namespace {

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

const std::vector<ParamDoc>& LinearLearner::Params() {
  static const std::vector<ParamDoc> kDocs = [] {
    std::vector<ParamDoc> docs = LearnerParam::Table().Docs();
    for (ParamDoc& d : LinearParam::Table().Docs()) docs.push_back(std::move(d));
    return docs;
  }();
  return kDocs;
}

Result<std::unique_ptr<LinearLearner>> LinearLearner::Create(
    const std::vector<std::pair<std::string, std::string>>& params, const Context& ctx,
    rabit::Comm* comm) {
  LearnerParam lparam;
  LinearParam param;
  for (const auto& [key, value] : params) {
    Status s = LearnerParam::Table().Find(key) ? LearnerParam::Table().Set(&lparam, key, value)
                                               : LinearParam::Table().Set(&param, key, value);
    if (!s.ok()) return s;
  }
  if (!lparam.objective_set && lparam.num_class > 1) lparam.objective = "multi:softmax";
  if (Status s = lparam.Validate(); !s.ok()) return s;
  if (Status s = param.Validate(); !s.ok()) return s;
  // XGBoost 1.7 (learner.cc): count:poisson's max_delta_step is 0.7 for gblinear.
  auto objective = Objective::Create(ObjectiveConfigOf(lparam, 0.7f));
  if (!objective.ok()) return objective.status().WithKey("objective");
  if (auto margin = objective.value()->ProbToMargin(lparam.base_score); !margin.ok()) {
    return Status::InvalidKey("base_score", "parameter " + margin.status().message());
  }
  if (auto metrics = CreateMetrics(lparam, *objective.value()); !metrics.ok()) {
    return metrics.status();
  }
  return std::make_unique<LinearLearner>(std::move(lparam), param, std::move(objective).value(),
                                         ctx, comm);
}

LinearLearner::LinearLearner(LearnerParam lparam, LinearParam param,
                             std::unique_ptr<Objective> objective, const Context& ctx,
                             rabit::Comm* comm)
    : lparam_(std::move(lparam)),
      param_(std::move(param)),
      objective_(std::move(objective)),
      ctx_(ctx),
      comm_(comm) {
  model_.linear = true;
  model_.objective = lparam_.objective;
  model_.num_class = lparam_.num_class;
  model_.base_score = lparam_.base_score;
  model_.scale_pos_weight = lparam_.scale_pos_weight;
  model_.boost_from_average = !lparam_.base_score_set;
  model_.objective_params = ObjectiveParamsOf(lparam_);
  auto margin = objective_->ProbToMargin(model_.base_score);
  base_margin_ = margin.ok() ? margin.value() : 0.0f;
}

Status LinearLearner::LoadModel(GBTreeModel model) {
  if (!model.linear) {
    return Status::InvalidKey("booster", "booster gblinear disagrees with the model's " +
                                             std::string(model.dart ? "dart" : "gbtree"));
  }
  if (lparam_.objective_set && model.objective != lparam_.objective) {
    return Status::InvalidInput("objective " + lparam_.objective + " disagrees with the model's " +
                                model.objective);
  }
  if (lparam_.num_class_set && model.num_class != lparam_.num_class) {
    return Status::InvalidInput("num_class " + std::to_string(lparam_.num_class) +
                                " disagrees with the model's " + std::to_string(model.num_class));
  }
  LearnerParam next = lparam_;
  next.objective = model.objective;
  next.num_class = model.num_class;
  next.scale_pos_weight = model.scale_pos_weight;
  ObjectiveConfig oc = ObjectiveConfigOf(next, 0.7f);
  // The objective's own parameters as the model file carries them (XGBoost's param blocks).
  if (Status s = ReadObjectiveParams(model.objective_params, &oc); !s.ok()) return s;
  next.huber_slope = oc.huber_slope;  // the metrics take them from the learner's parameters
  next.tweedie_variance_power = oc.tweedie_variance_power;
  next.aft_loss_distribution = oc.aft_loss_distribution;
  next.aft_loss_distribution_scale = oc.aft_loss_distribution_scale;
  next.quantile_alpha = oc.quantile_alpha;
  auto objective = Objective::Create(oc);
  if (!objective.ok()) return objective.status();
  auto margin = objective.value()->ProbToMargin(model.base_score);
  if (!margin.ok()) return margin.status();
  if (train_ != nullptr && model.num_feature != columns_.NumFeatures()) {
    return Status::InvalidInput("the model has " + std::to_string(model.num_feature) +
                                " features, the training data " +
                                std::to_string(columns_.NumFeatures()));
  }
  lparam_ = next;
  objective_ = std::move(objective).value();
  base_margin_ = margin.value();
  model_ = std::move(model);
  previous_weights_.clear();
  converged_ = false;
  return ResolveMetrics();
}

Status LinearLearner::CheckData(const data::DMatrix& dm, const std::string& what) const {
  // survival:aft learns from label_lower_bound / label_upper_bound alone, as XGBoost does.
  const bool bounds_only = dm.label.empty() && objective_->Name() == "survival:aft";
  if (dm.label.size() != dm.NumRows() && !bounds_only) {
    return Status::InvalidInput(what + ": " + std::to_string(dm.label.size()) + " labels for " +
                                std::to_string(dm.NumRows()) + " rows");
  }
  if (Status s = CheckRowInfo(dm, objective_->NumGroups(), what); !s.ok()) return s;
  return objective_->CheckLabels(LabelsOf(dm)).WithContext(what);
}

Status LinearLearner::ResolveMetrics() {
  auto metrics = CreateMetrics(lparam_, *objective_);
  if (!metrics.ok()) return metrics.status();
  metrics_ = std::move(metrics).value();
  return Status::Ok();
}

// XGBoost's GBLinear lazily sizes the weights on its first round, from the learner's feature
// count (the largest over the ranks), and sums the instance weights once.
Status LinearLearner::SetTrainData(data::DMatrix* train) {
  const double start = Now();
  if (Status s = CheckData(*train, "training data"); !s.ok()) return s;
  if (Status s = ResolveMetrics(); !s.ok()) return s;
  std::uint64_t num_feature = std::max<std::uint64_t>(train->num_col, model_.num_feature);
  comm_->Allreduce<rabit::op::Max>(&num_feature, 1);
  if (!model_.linear_weights.empty() && num_feature != model_.num_feature) {
    return Status::InvalidInput("the model has " + std::to_string(model_.num_feature) +
                                " features, the training data " + std::to_string(num_feature));
  }
  // The weights are dense: a feature count from a damaged model_in must not become a
  // multi-gigabyte allocation (2^28 weights = 1 GiB).
  const std::uint64_t weights = (num_feature + 1) * static_cast<std::uint64_t>(model_.NumGroups());
  if (weights > (std::uint64_t{1} << 28)) {
    return Status::InvalidInput("gblinear: " + std::to_string(num_feature) + " features x " +
                                std::to_string(model_.NumGroups()) +
                                " groups is more weights than the 2^28 treering allows");
  }
  model_.num_feature = num_feature;
  std::int64_t seed = ctx_.seed;
  comm_->Broadcast(&seed, sizeof(seed), 0);
  rng_.seed(static_cast<std::mt19937::result_type>(seed));  // XGBoost: GlobalRandom().seed(seed)
  updater_ = std::make_unique<CoordinateUpdater>(param_, &rng_);
  columns_ = FeatureColumns::Transpose(*train, num_feature, ctx_.Threads());
  train_ = train;
  const GradientStats stats(&columns_, objective_->NumGroups(), &ctx_, comm_);
  sum_weight_ = stats.WeightSum(train->weight, train->NumRows());
  timing_.setup_s += Now() - start;
  return Status::Ok();
}

Status LinearLearner::AddEvalSet(const std::string& name, data::DMatrix* dm) {
  if (Status s = CheckData(*dm, "eval set " + name); !s.ok()) return s;
  eval_sets_.emplace_back(name, dm);
  return Status::Ok();
}

std::vector<float> LinearLearner::Margins(const data::DMatrix& dm) const {
  if (&dm == train_ && !model_.linear_weights.empty()) return TrainMargins();
  const int groups = model_.NumGroups();
  const std::size_t rows = dm.NumRows();
  const std::size_t nf = model_.num_feature;
  const std::vector<float>& w = model_.linear_weights;
  std::vector<float> out(rows * groups);
  const bool own_margin = dm.base_margin.size() == out.size();
  ParallelFor(rows, ThreadsFor(dm.value.size() + rows, ctx_.Threads()), [&](std::size_t r) {
    for (int g = 0; g < groups; ++g) {
      const float base = own_margin ? dm.base_margin[r * groups + g] : base_margin_;
      if (w.empty()) {
        out[r * groups + g] = base;
        continue;
      }
      float psum = w[nf * groups + g] + base;
      for (std::uint64_t k = dm.row_ptr[r]; k < dm.row_ptr[r + 1]; ++k) {
        if (dm.index[k] >= nf || std::isnan(dm.value[k])) continue;
        psum += dm.value[k] * w[std::size_t{dm.index[k]} * groups + g];
      }
      out[r * groups + g] = psum;
    }
  });
  return out;
}

// The training rows' margins from the columns (AddFeatureTerms: the same floats as Margins').
std::vector<float> LinearLearner::TrainMargins() const {
  const int groups = model_.NumGroups();
  const std::size_t n = train_->NumRows() * groups;
  const std::vector<float>& w = model_.linear_weights;
  const float* bias = w.data() + model_.num_feature * groups;
  std::vector<float> out(n);
  const bool own_margin = train_->base_margin.size() == n;
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = bias[i % groups] + (own_margin ? train_->base_margin[i] : base_margin_);
  }
  AddFeatureTerms(columns_, w, groups, ThreadsFor(columns_.value.size(), ctx_.Threads()), &out);
  return out;
}

// GBLinear::CheckConvergence: the largest change of the last round, checked before each round.
bool LinearLearner::Converged() {
  if (param_.tolerance == 0.0f) return false;
  if (converged_) return true;
  const std::vector<float>& w = model_.linear_weights;
  if (previous_weights_.size() != w.size()) {
    previous_weights_ = w;
    return false;
  }
  float largest = 0.0f;
  for (std::size_t i = 0; i < w.size(); ++i) {
    largest = std::max(largest, std::abs(w[i] - previous_weights_[i]));
  }
  previous_weights_ = w;
  converged_ = largest <= param_.tolerance;
  return converged_;
}

void LinearLearner::Boost() {
  const int groups = model_.NumGroups();
  if (model_.linear_weights.empty()) {
    model_.linear_weights.assign((model_.num_feature + 1) * groups, 0.0f);
  }
  if (!Converged()) {
    const GradientStats stats(&columns_, groups, &ctx_, comm_);
    updater_->Update(stats, sum_weight_, model_.num_feature, groups, &gpair_,
                     &model_.linear_weights);
  }
  ++model_.linear_rounds;
}

Status LinearLearner::UpdateOneIter(int /*iter*/) {
  if (train_ == nullptr) return Status::InvalidInput("UpdateOneIter: no training data set");
  if (Status s = objective_->CanComputeGradients(); !s.ok()) return s;
  const double start = Now();
  const rabit::CommStats before = comm_->Stats();
  const std::vector<float> margins = Margins(*train_);
  objective_->GetGradient(margins, LabelsOf(*train_, model_.linear_rounds), ctx_, &gpair_);
  Boost();
  const rabit::CommStats after = comm_->Stats();
  round_cost_ = RoundCost{};
  round_cost_.sync_s = after.seconds - before.seconds;
  round_cost_.comp_s = Now() - start - round_cost_.sync_s;
  round_cost_.payload_bytes = static_cast<double>(after.payload_bytes - before.payload_bytes);
  round_cost_.calls = static_cast<double>(after.calls - before.calls);
  timing_.boost_s += Now() - start;
  return Status::Ok();
}

Result<std::vector<EvalResult>> LinearLearner::Evaluate(const std::string& name,
                                                        const data::DMatrix& dm) {
  std::vector<float> preds = Margins(dm);
  objective_->EvalTransform(&preds, ctx_);
  std::vector<EvalResult> results;
  for (const auto& metric : metrics_) {
    auto value = metric->Evaluate(preds, objective_->NumGroups(), LabelsOf(dm), ctx_, *comm_);
    if (!value.ok()) return value.status();
    results.push_back({name + "-" + metric->Name(), value.value()});
  }
  return results;
}

Result<std::vector<EvalResult>> LinearLearner::EvalOneIter(int /*iter*/) {
  const double start = Now();
  std::vector<EvalResult> results;
  for (const auto& [name, dm] : eval_sets_) {
    auto r = Evaluate(name, *dm);
    if (!r.ok()) return r.status();
    results.insert(results.end(), r->begin(), r->end());
  }
  timing_.eval_s += Now() - start;
  return results;
}

}  // namespace treering::booster::linear
