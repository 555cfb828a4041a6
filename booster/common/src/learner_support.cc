#include "booster/learner_support.h"

#include <cmath>
#include <cstdlib>

#include "booster/number_format.h"

namespace treering::booster {

Status CheckRowInfo(const data::DMatrix& dm, int groups, const std::string& what) {
  if (!dm.weight.empty() && dm.weight.size() != dm.NumRows()) {
    return Status::InvalidInput(what + ": weights do not match the rows");
  }
  const std::size_t margins = dm.NumRows() * static_cast<std::size_t>(groups);
  if (!dm.base_margin.empty() && dm.base_margin.size() != margins) {
    return Status::InvalidInput(what + ": base_margin has " +
                                std::to_string(dm.base_margin.size()) + " values for " +
                                std::to_string(margins) + " (rows x output groups)");
  }
  for (const auto* b : {&dm.label_lower_bound, &dm.label_upper_bound}) {
    if (!b->empty() && b->size() != dm.NumRows()) {  // XGBoost's MetaInfo::Validate
      return Status::InvalidInput(what + ": " + std::to_string(b->size()) + " label " +
                                  (b == &dm.label_lower_bound ? "lower" : "upper") +
                                  " bounds for " + std::to_string(dm.NumRows()) + " rows");
    }
  }
  return Status::Ok();
}

LabelView LabelsOf(const data::DMatrix& dm, int iteration) {
  LabelView view{&dm.label, &dm.weight, &dm.group_ptr, iteration};
  view.label_columns = dm.label_columns;
  view.lower_bound = &dm.label_lower_bound;
  view.upper_bound = &dm.label_upper_bound;
  return view;
}

std::map<std::string, std::string> ObjectiveParamsOf(const LearnerParam& p) {
  std::map<std::string, std::string> out;
  if (p.objective == "reg:pseudohubererror") out["huber_slope"] = FloatToG9(p.huber_slope);
  if (p.objective == "reg:tweedie") {
    out["tweedie_variance_power"] = FloatToG9(p.tweedie_variance_power);
  }
  if (p.objective == "survival:aft") {  // XGBoost's aft_loss_param
    out["aft_loss_distribution"] = p.aft_loss_distribution;
    out["aft_loss_distribution_scale"] = FloatToG9(p.aft_loss_distribution_scale);
  }
  if (p.objective.rfind("rank:", 0) == 0) {
    out["num_pairsample"] = std::to_string(p.num_pairsample);
    out["fix_list_weight"] = FloatToG9(p.fix_list_weight);
  }
  if (p.objective == "reg:quantileerror") {  // XGBoost 2.x's quantile_loss_param: a JSON list
    std::string list;
    for (float a : p.quantile_alpha) {
      list += list.empty() ? '[' : ',';
      list += FloatToXgbJson(a);
    }
    out["quantile_alpha"] = list + "]";
  }
  return out;
}

ObjectiveConfig ObjectiveConfigOf(const LearnerParam& p, float max_delta_step) {
  ObjectiveConfig oc{p.objective,    p.num_class,   p.scale_pos_weight,
                     max_delta_step, p.huber_slope, p.tweedie_variance_power};
  oc.num_pairsample = p.num_pairsample;
  oc.fix_list_weight = p.fix_list_weight;
  oc.aft_loss_distribution = p.aft_loss_distribution;
  oc.aft_loss_distribution_scale = p.aft_loss_distribution_scale;
  oc.quantile_alpha = p.quantile_alpha;
  return oc;
}

Status ReadObjectiveParams(const std::map<std::string, std::string>& params, ObjectiveConfig* oc) {
  for (auto [key, field] :
       {std::pair{"huber_slope", &oc->huber_slope},
        std::pair{"tweedie_variance_power", &oc->tweedie_variance_power},
        std::pair{"fix_list_weight", &oc->fix_list_weight},
        std::pair{"aft_loss_distribution_scale", &oc->aft_loss_distribution_scale}}) {
    const auto it = params.find(key);
    if (it == params.end()) continue;
    char* end = nullptr;
    *field = std::strtof(it->second.c_str(), &end);
    if (it->second.empty() || *end != '\0') {
      return Status::InvalidInput(std::string("model: objective parameter ") + key + " is '" +
                                  it->second + "', not a number");
    }
  }
  if (const auto it = params.find("aft_loss_distribution"); it != params.end()) {
    oc->aft_loss_distribution = it->second;  // Objective::Create checks the name
  }
  if (const auto it = params.find("num_pairsample"); it != params.end()) {
    char* end = nullptr;
    const long n = std::strtol(it->second.c_str(), &end, 10);
    if (it->second.empty() || *end != '\0' || n < 1 || n > (1 << 20)) {
      return Status::InvalidInput("model: objective parameter num_pairsample is '" + it->second +
                                  "', not an integer in [1, 2^20]");
    }
    oc->num_pairsample = static_cast<int>(n);
  }
  if (const auto it = params.find("quantile_alpha"); it != params.end()) {
    auto alphas = ParseQuantileAlpha(it->second);
    if (!alphas.ok()) {
      return Status::InvalidInput("model: objective parameter quantile_alpha is '" + it->second +
                                  "', not " + alphas.status().message());
    }
    oc->quantile_alpha = std::move(alphas).value();
  }
  return Status::Ok();
}

Result<std::vector<std::unique_ptr<Metric>>> CreateMetrics(const LearnerParam& lparam,
                                                           const Objective& objective) {
  std::vector<std::string> names = lparam.eval_metrics;
  // XGBoost 1.7 configures only the metrics named in eval_metric: its default mphe keeps
  // huber_slope = 1 whatever the objective's slope, its default aft-nloglik a normal
  // distribution of scale 1 whatever the objective's (the peer tests check both).
  MetricConfig config{lparam.huber_slope, lparam.aft_loss_distribution,
                      lparam.aft_loss_distribution_scale, lparam.quantile_alpha};
  if (names.empty() && !lparam.disable_default_eval_metric) {
    names.push_back(objective.DefaultMetric());
    config = MetricConfig{};
    config.quantile_alpha = lparam.quantile_alpha;
  }
  std::vector<std::unique_ptr<Metric>> metrics;
  for (const auto& name : names) {
    auto m = Metric::Create(name, config);
    if (!m.ok()) return m.status().WithKey("eval_metric");
    metrics.push_back(std::move(m).value());
  }
  return metrics;
}

Status CheckCustomGradients(const data::DMatrix* train, int groups, const std::vector<float>& grad,
                            const std::vector<float>& hess) {
  if (train == nullptr) return Status::InvalidInput("no training data set");
  const std::size_t n = train->NumRows() * static_cast<std::size_t>(groups);
  if (grad.size() != n || hess.size() != n) {
    return Status::InvalidInput("gradients: " + std::to_string(grad.size()) + " values for " +
                                std::to_string(train->NumRows()) + " rows x " +
                                std::to_string(groups) + " output groups");
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(grad[i]) || !std::isfinite(hess[i])) {
      return Status::InvalidInput("gradients: grad[" + std::to_string(i) + "] or hess[" +
                                  std::to_string(i) + "] is not finite");
    }
  }
  return Status::Ok();
}

GBTreeModel WithAttributes(const GBTreeModel& model,
                           const std::map<std::string, std::string>& attributes) {
  GBTreeModel out = model;
  for (const auto& [key, value] : attributes) out.attributes[key] = value;
  return out;
}

ModelInfo ModelInfoOf(const GBTreeModel& model, const std::map<std::string, std::string>& own) {
  ModelInfo info{model.attributes, model.feature_names, model.feature_types};
  for (const auto& [key, value] : own) info.attributes[key] = value;
  return info;
}

void SetModelInfoOf(const ModelInfo& info, GBTreeModel* model,
                    std::map<std::string, std::string>* own) {
  own->clear();
  model->attributes = info.attributes;
  model->feature_names = info.feature_names;
  if (!info.feature_types.empty()) model->feature_types = info.feature_types;
}

}  // namespace treering::booster
