// reg:quantileerror (XGBoost 2.x src/objective/quantile_obj.cu; not in 1.7): one output per
// quantile_alpha, the pinball loss's gradient per output, hessian the row weight:
//   d = margin - label;  grad = (1 - alpha) * w if d >= 0 else -alpha * w;  hess = w.
// Leaves are then refreshed to the alpha-quantile of their rows' residuals, scaled by eta as
// 2.x's UpdateTreeLeaf does, and an unset base_score starts at the mean over the alphas of the
// labels' weighted alpha-quantiles (2.x's InitEstimation).
#include <string>
#include <utility>
#include <vector>

#include "base/parallel_for.h"
#include "booster/work_split.h"
#include "objective_impl.h"

namespace treering::booster {
namespace {

class QuantileObjective : public Objective {
 public:
  explicit QuantileObjective(std::vector<float> alpha) : alpha_(std::move(alpha)) {}

  const std::string& Name() const override { return name_; }
  int NumGroups() const override { return static_cast<int>(alpha_.size()); }

  // 2.x: "Multi-target is not supported by the quantile loss" (one label column only).
  Status CheckLabels(const LabelView& labels) const override {
    if (labels.label_columns > 1) {
      return Status::InvalidKey(
          "quantile_alpha", name_ + ": labels have " + std::to_string(labels.label_columns) +
                                " columns; the quantile loss takes one label column and gives " +
                                "one output per quantile_alpha (XGBoost 2.x refuses several)");
    }
    return CheckLabelsFinite(name_, labels);
  }

  void GetGradient(const std::vector<float>& margin, const LabelView& labels, const Context& ctx,
                   std::vector<GradientPair>* out) const override {
    const std::size_t k = alpha_.size();
    const std::size_t rows = labels.label->size();
    out->resize(rows * k);
    ParallelFor(rows, ctx.ThreadsFor(rows * k, kBoosterGrain), [&](std::size_t row) {
      const float y = (*labels.label)[row];
      const float w = labels.Weight(row);
      for (std::size_t j = 0; j < k; ++j) {
        const float d = margin[row * k + j] - y;
        const float g = d >= 0.0f ? (1.0f - alpha_[j]) * w : -alpha_[j] * w;
        (*out)[row * k + j] = {g, w};
      }
    });
  }

  void PredTransform(std::vector<float>*, const Context&) const override {}
  std::string DefaultMetric() const override { return "quantile"; }
  std::optional<double> LeafQuantile() const override { return alpha_.front(); }
  std::optional<double> LeafQuantileOf(int group) const override { return alpha_.at(group); }
  bool LeafRefreshScaledByEta() const override { return true; }
  std::vector<float> InterceptQuantiles() const override { return alpha_; }

 private:
  const std::string name_ = "reg:quantileerror";
  std::vector<float> alpha_;
};

}  // namespace

Result<std::unique_ptr<Objective>> MakeQuantileObjective(const std::vector<float>& alpha) {
  if (alpha.empty()) {
    return Status::InvalidKey("quantile_alpha", "parameter quantile_alpha: empty list");
  }
  for (float a : alpha) {
    if (!(a > 0.0f && a < 1.0f)) {
      return Status::InvalidKey(
          "quantile_alpha", "parameter quantile_alpha: " + std::to_string(a) + " is not in (0, 1)");
    }
  }
  return std::unique_ptr<Objective>(std::make_unique<QuantileObjective>(alpha));
}

}  // namespace treering::booster
