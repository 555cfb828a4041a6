// survival:cox (XGBoost 1.7 regression_obj.cu CoxRegression): partial likelihood of the Cox
// proportional hazards model with Breslow's method for ties. Labels are survival times, negative
// for censored rows. Each row's gradient needs the risk-set sums of all rows that survive at
// least as long, so rows are walked in ascending |label| order, in double as XGBoost does.
// Distributed, each rank's rows form their own risk sets (XGBoost does the same).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "base/parallel_for.h"
#include "booster/work_split.h"
#include "objective_impl.h"

namespace treering::booster {
namespace {

class CoxObjective : public Objective {
 public:
  const std::string& Name() const override { return name_; }

  Status CheckLabels(const LabelView& labels) const override {
    return CheckLabelsFinite(name_, labels, "survival time, negative when censored");
  }

  void GetGradient(const std::vector<float>& margin, const LabelView& labels,
                   const Context& /*ctx*/, std::vector<GradientPair>* out) const override {
    const std::vector<float>& y = *labels.label;
    const std::vector<std::size_t> order = AbsLabelOrder(y);
    out->resize(margin.size());
    double exp_p_sum = 0;  // the risk set's sum of exp(margin), shrinking as time passes
    for (std::size_t row : order) exp_p_sum += std::exp(margin[row]);
    double r_k = 0, s_k = 0, last_exp_p = 0, last_abs_y = 0, accumulated = 0;
    for (std::size_t row : order) {
      const double exp_p = std::exp(static_cast<double>(margin[row]));
      const double w = labels.Weight(row);
      const double abs_y = std::fabs(static_cast<double>(y[row]));
      accumulated += last_exp_p;  // leave the risk set only once time moves on (ties)
      if (last_abs_y < abs_y) {
        exp_p_sum -= accumulated;
        accumulated = 0;
      }
      if (y[row] > 0) {
        r_k += 1.0 / exp_p_sum;
        s_k += 1.0 / (exp_p_sum * exp_p_sum);
      }
      const double grad = exp_p * r_k - static_cast<float>(y[row] > 0);
      const double hess = exp_p * r_k - exp_p * exp_p * s_k;
      (*out)[row] = {static_cast<float>(grad * w), static_cast<float>(hess * w)};
      last_abs_y = abs_y;
      last_exp_p = exp_p;
    }
  }

  void PredTransform(std::vector<float>* values, const Context& ctx) const override {
    ParallelFor(values->size(), ctx.ThreadsFor(values->size(), kBoosterGrain),
                [&](std::size_t i) { (*values)[i] = std::exp((*values)[i]); });
  }

  Result<float> ProbToMargin(float base_score) const override {
    if (!(base_score > 0.0f)) return Status::InvalidInput("base_score must be > 0 for " + name_);
    return std::log(base_score);
  }

  std::string DefaultMetric() const override { return "cox-nloglik"; }

 private:
  std::string name_ = "survival:cox";
};

}  // namespace

std::vector<std::size_t> AbsLabelOrder(const std::vector<float>& labels) {
  std::vector<std::size_t> order(labels.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::fabs(labels[a]) < std::fabs(labels[b]);
  });
  return order;
}

std::unique_ptr<Objective> MakeCoxObjective() { return std::make_unique<CoxObjective>(); }

}  // namespace treering::booster
