// reg:absoluteerror (XGBoost 1.7 regression_obj.cu MeanAbsoluteError): gradient
// sign(margin - label) * weight, hessian weight. The trees' leaves are then reset to the
// median of their rows' residuals by the tree learner (LeafQuantile; booster/tree's
// leaf_refresh), which also starts an unset base_score at the weighted median of the labels.
#include <string>
#include <vector>

#include "base/parallel_for.h"
#include "booster/work_split.h"
#include "objective_impl.h"

namespace treering::booster {
namespace {

class AbsoluteErrorObjective : public Objective {
 public:
  const std::string& Name() const override { return name_; }

  // XGBoost checks only the label count (CheckRegInputs); a NaN label would poison a median.
  // XGBoost checks only the label count (CheckRegInputs); a NaN label would poison a median.
  Status CheckLabels(const LabelView& labels) const override {
    return CheckLabelsFinite(name_, labels);
  }

  void GetGradient(const std::vector<float>& margin, const LabelView& labels, const Context& ctx,
                   std::vector<GradientPair>* out) const override {
    out->resize(margin.size());
    ParallelFor(margin.size(), ctx.ThreadsFor(margin.size(), kBoosterGrain), [&](std::size_t i) {
      const float x = margin[i] - (*labels.label)[i];
      const float sign = static_cast<float>((x > 0.0f) - (x < 0.0f));
      const float w = labels.Weight(i);
      (*out)[i] = {sign * w, w};
    });
  }

  void PredTransform(std::vector<float>*, const Context&) const override {}
  std::string DefaultMetric() const override { return "mae"; }
  std::optional<double> LeafQuantile() const override { return 0.5; }

 private:
  const std::string name_ = "reg:absoluteerror";
};

}  // namespace

std::unique_ptr<Objective> MakeAbsoluteErrorObjective() {
  return std::make_unique<AbsoluteErrorObjective>();
}

}  // namespace treering::booster
