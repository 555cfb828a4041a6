// survival:aft (XGBoost 1.7 aft_obj.cu): accelerated failure time. Each row's label is an
// interval [label_lower_bound, label_upper_bound] on the survival time: equal ends are an
// observed time, upper = +inf right-censored, lower = 0 left-censored, anything else
// interval-censored. The margin is log time; gradients and hessians are XGBoost's double
// formulas (aft_distribution.h) rounded to float, then multiplied by the float weight.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "aft_distribution.h"
#include "base/parallel_for.h"
#include "booster/work_split.h"
#include "objective_impl.h"

namespace treering::booster {
namespace {

template <typename D>
void AftGradients(const std::vector<float>& margin, const LabelView& labels, double sigma,
                  const Context& ctx, std::vector<GradientPair>* out) {
  const std::vector<float>& lower = *labels.lower_bound;
  const std::vector<float>& upper = *labels.upper_bound;
  ParallelFor(margin.size(), ctx.ThreadsFor(margin.size(), kBoosterGrain), [&](std::size_t i) {
    const double pred = margin[i];
    const auto grad = static_cast<float>(aft::Gradient<D>(lower[i], upper[i], pred, sigma));
    const auto hess = static_cast<float>(aft::Hessian<D>(lower[i], upper[i], pred, sigma));
    const float w = labels.Weight(i);
    (*out)[i] = {grad * w, hess * w};
  });
}

class AftObjective : public Objective {
 public:
  explicit AftObjective(const ObjectiveConfig& config)
      : distribution_(config.aft_loss_distribution), scale_(config.aft_loss_distribution_scale) {}

  const std::string& Name() const override { return name_; }

  Status CheckLabels(const LabelView& labels) const override {
    return CheckAftBounds(name_, labels);
  }

  void GetGradient(const std::vector<float>& margin, const LabelView& labels, const Context& ctx,
                   std::vector<GradientPair>* out) const override {
    out->resize(margin.size());
    const double sigma = scale_;  // XGBoost passes its float parameter on as double
    if (distribution_ == "logistic") {
      AftGradients<aft::Logistic>(margin, labels, sigma, ctx, out);
    } else if (distribution_ == "extreme") {
      AftGradients<aft::Extreme>(margin, labels, sigma, ctx, out);
    } else {
      AftGradients<aft::Normal>(margin, labels, sigma, ctx, out);
    }
  }

  void PredTransform(std::vector<float>* values, const Context& ctx) const override {
    ParallelFor(values->size(), ctx.ThreadsFor(values->size(), kBoosterGrain),
                [&](std::size_t i) { (*values)[i] = std::exp((*values)[i]); });
  }

  // The survival metrics take the margin (log time), as XGBoost's AFT EvalTransform.
  void EvalTransform(std::vector<float>* /*values*/, const Context& /*ctx*/) const override {}

  Result<float> ProbToMargin(float base_score) const override {
    if (!(base_score > 0.0f)) return Status::InvalidInput("base_score must be > 0 for " + name_);
    return std::log(base_score);
  }

  std::string DefaultMetric() const override { return "aft-nloglik"; }

 private:
  std::string name_ = "survival:aft";
  std::string distribution_;
  float scale_;
};

}  // namespace

Status CheckAftBounds(const std::string& what, const LabelView& labels) {
  // Labels are optional for survival:aft (XGBoost trains on the bounds alone).
  const std::size_t rows = labels.label != nullptr && !labels.label->empty() ? labels.NumRows()
                           : labels.lower_bound != nullptr ? labels.lower_bound->size()
                                                           : 0;
  for (const auto& [bound, key] : {std::pair{labels.lower_bound, "label_lower_bound"},
                                   std::pair{labels.upper_bound, "label_upper_bound"}}) {
    if (bound == nullptr || bound->size() != rows) {
      return Status::InvalidInput(
          what + ": needs " + key + " for each of the " + std::to_string(rows) + " rows, got " +
          std::to_string(bound ? bound->size() : 0) +
          " (C API / Python: set_float_info; CLI: a FILE.bounds side file, docs/data.md)");
    }
  }
  for (std::size_t i = 0; i < rows; ++i) {
    const float lo = (*labels.lower_bound)[i], hi = (*labels.upper_bound)[i];
    if (std::isnan(lo) || std::isnan(hi) || lo > hi) {
      return Status::InvalidInput(what + ": row " + std::to_string(i) + " has label_lower_bound " +
                                  std::to_string(lo) + " and label_upper_bound " +
                                  std::to_string(hi) + ": need lower <= upper, neither NaN");
    }
  }
  return Status::Ok();
}

std::unique_ptr<Objective> MakeAftObjective(const ObjectiveConfig& config) {
  return std::make_unique<AftObjective>(config);
}

}  // namespace treering::booster
