// Multi-class metrics (XGBoost 1.7 metric/multiclass_metric.cu) over softmax probabilities.
#include <algorithm>
#include <cmath>
#include <string>

#include "metric_impl.h"

namespace treering::booster {
namespace {

class MulticlassMetric : public Metric {
 public:
  explicit MulticlassMetric(std::string name) : name_(std::move(name)) {}

  const std::string& Name() const override { return name_; }

  Result<double> Evaluate(const std::vector<float>& preds, int groups, const LabelView& labels,
                          const Context& ctx, rabit::Comm& comm) const override {
    if (groups < 2) {
      return Status::InvalidInput("eval_metric " + name_ + " needs a multi:* objective");
    }
    const bool error = name_ == "merror";
    const WeightedSum local = SumRows(labels.NumRows(), ctx.Threads(), [&](std::size_t row) {
      const float* p = preds.data() + row * groups;
      const auto label = static_cast<int>((*labels.label)[row]);
      const float w = labels.Weight(row);
      double loss = 0.0;
      if (error) {
        loss = (std::max_element(p, p + groups) - p) == label ? 0.0 : 1.0;
      } else {
        const float eps = 1e-16f;
        loss = p[label] > eps ? -std::log(p[label]) : -std::log(eps);
      }
      return WeightedSum{w * loss, w};
    });
    return GlobalMean(local, comm);
  }

 private:
  std::string name_;
};

}  // namespace

std::unique_ptr<Metric> MakeMulticlassMetric(const std::string& name) {
  if (name == "merror" || name == "mlogloss") return std::make_unique<MulticlassMetric>(name);
  return nullptr;
}

}  // namespace treering::booster
