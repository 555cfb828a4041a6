// The survival metrics (XGBoost 1.7 survival_metric.cu) on survival:aft's margins (log time):
// aft-nloglik, the weighted mean of the AFT loss (aft_distribution.h), and
// interval-regression-accuracy, the weighted share of rows whose exp(margin) falls inside
// [label_lower_bound, label_upper_bound]. Distributed, each rank's {sum, weight} is one
// allreduce, as XGBoost does.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "aft_distribution.h"
#include "metric_impl.h"
#include "objective_impl.h"

namespace treering::booster {
namespace {

enum class SurvivalKind { kNegLogLik, kAccuracy };

class SurvivalMetric : public Metric {
 public:
  SurvivalMetric(std::string name, SurvivalKind kind, const MetricConfig& config)
      : name_(std::move(name)),
        kind_(kind),
        distribution_(config.aft_loss_distribution),
        sigma_(config.aft_loss_distribution_scale) {}

  const std::string& Name() const override { return name_; }

  Result<double> Evaluate(const std::vector<float>& preds, int groups, const LabelView& labels,
                          const Context& ctx, rabit::Comm& comm) const override {
    if (groups != 1) {
      return Status::InvalidInput("eval_metric " + name_ + " needs a one-output objective");
    }
    if (Status s = CheckAftBounds("eval_metric " + name_, labels); !s.ok()) return s;
    if (labels.lower_bound->size() != preds.size()) {
      return Status::InvalidInput("eval_metric " + name_ + ": bounds do not match the rows");
    }
    WeightedSum local;
    if (kind_ == SurvivalKind::kAccuracy) {
      local = Sum(preds, labels, ctx, [](double lo, double hi, double log_pred) {
        const double pred = std::exp(log_pred);
        return pred >= lo && pred <= hi ? 1.0 : 0.0;
      });
    } else if (distribution_ == "logistic") {
      local = Sum(preds, labels, ctx, [&](double lo, double hi, double p) {
        return aft::Loss<aft::Logistic>(lo, hi, p, sigma_);
      });
    } else if (distribution_ == "extreme") {
      local = Sum(preds, labels, ctx, [&](double lo, double hi, double p) {
        return aft::Loss<aft::Extreme>(lo, hi, p, sigma_);
      });
    } else {
      local = Sum(preds, labels, ctx, [&](double lo, double hi, double p) {
        return aft::Loss<aft::Normal>(lo, hi, p, sigma_);
      });
    }
    double sums[2] = {local.loss, local.weight};
    comm.Allreduce<rabit::op::Sum>(sums, 2);
    return sums[1] == 0 ? sums[0] : sums[0] / sums[1];  // XGBoost's GetFinal
  }

 private:
  template <typename RowValue>
  static WeightedSum Sum(const std::vector<float>& preds, const LabelView& labels,
                         const Context& ctx, RowValue value) {
    const std::vector<float>& lower = *labels.lower_bound;
    const std::vector<float>& upper = *labels.upper_bound;
    return SumRows(preds.size(), ctx.Threads(), [&](std::size_t row) {
      const double w = labels.Weight(row);
      return WeightedSum{value(lower[row], upper[row], preds[row]) * w, w};
    });
  }

  std::string name_;
  SurvivalKind kind_;
  std::string distribution_;
  double sigma_;  // XGBoost's float parameter, used as double
};

}  // namespace

std::unique_ptr<Metric> MakeSurvivalMetric(const std::string& name, const MetricConfig& config) {
  if (name == "aft-nloglik") {
    return std::make_unique<SurvivalMetric>(name, SurvivalKind::kNegLogLik, config);
  }
  if (name == "interval-regression-accuracy") {
    return std::make_unique<SurvivalMetric>(name, SurvivalKind::kAccuracy, config);
  }
  return nullptr;
}

}  // namespace treering::booster
