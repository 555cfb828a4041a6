// quantile (XGBoost 2.x metric/elementwise_metric.cu QuantileError): the weighted pinball loss
// averaged over every prediction, rows x alphas (each element weighs its row's weight):
//   d = label - pred;  loss = alpha * d if d >= 0 else (alpha - 1) * d.
#include <string>
#include <utility>
#include <vector>

#include "metric_impl.h"

namespace treering::booster {
namespace {

class QuantileMetric : public Metric {
 public:
  explicit QuantileMetric(std::vector<float> alpha) : alpha_(std::move(alpha)) {}
  const std::string& Name() const override { return name_; }

  Result<double> Evaluate(const std::vector<float>& preds, int groups, const LabelView& labels,
                          const Context& ctx, rabit::Comm& comm) const override {
    const std::size_t k = alpha_.size();
    if (static_cast<std::size_t>(groups) != k) {
      return Status::InvalidInput("eval_metric quantile: " + std::to_string(groups) +
                                  " outputs per row for " + std::to_string(k) +
                                  " quantile_alpha values");
    }
    const WeightedSum local = SumRows(labels.NumRows(), ctx.Threads(), [&](std::size_t row) {
      const float w = labels.Weight(row);
      const float y = (*labels.label)[row];
      WeightedSum s;
      for (std::size_t j = 0; j < k; ++j) {
        const float a = alpha_[j];
        const float d = y - preds[row * k + j];
        const float sign = d >= 0.0f ? 1.0f : 0.0f;
        const float loss = (a * sign * d) - (1.0f - a) * (1.0f - sign) * d;
        s.loss += loss * w;
        s.weight += w;
      }
      return s;
    });
    return GlobalMean(local, comm);
  }

 private:
  const std::string name_ = "quantile";
  std::vector<float> alpha_;
};

}  // namespace

std::unique_ptr<Metric> MakeQuantileMetric(const std::vector<float>& alpha) {
  return std::make_unique<QuantileMetric>(alpha);
}

}  // namespace treering::booster
