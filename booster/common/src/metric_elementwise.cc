// Row-wise metrics (XGBoost 1.7 metric/elementwise_metric.cu): weighted mean of a row loss,
// sqrt for rmse.
#include <cmath>
#include <cstdlib>
#include <string>

#include "metric_impl.h"

namespace treering::booster {
namespace {

enum class Kind { kRmse, kMae, kLogLoss, kError, kPoissonNll };

float LogLoss(float y, float py) {
  const float eps = 1e-16f;
  const float pneg = 1.0f - py;
  if (py < eps) return -y * std::log(eps) - (1.0f - y) * std::log(1.0f - eps);
  if (pneg < eps) return -y * std::log(1.0f - eps) - (1.0f - y) * std::log(eps);
  return -y * std::log(py) - (1.0f - y) * std::log(pneg);
}

class ElementwiseMetric : public Metric {
 public:
  ElementwiseMetric(std::string name, Kind kind, float threshold)
      : name_(std::move(name)), kind_(kind), threshold_(threshold) {}

  const std::string& Name() const override { return name_; }

  Result<double> Evaluate(const std::vector<float>& preds, int groups, const LabelView& labels,
                          int nthread, rabit::Comm& comm) const override {
    if (groups != 1) {
      return Status::InvalidInput("eval_metric " + name_ + " needs a one-output objective");
    }
    const WeightedSum local = SumRows(labels.NumRows(), nthread, [&](std::size_t row) {
      const float w = labels.Weight(row);
      return WeightedSum{w * RowLoss((*labels.label)[row], preds[row]), w};
    });
    const double mean = GlobalMean(local, comm);
    return kind_ == Kind::kRmse ? std::sqrt(mean) : mean;
  }

 private:
  double RowLoss(float y, float p) const {
    switch (kind_) {
      case Kind::kRmse: {
        const float diff = y - p;
        return diff * diff;
      }
      case Kind::kMae:
        return std::fabs(y - p);
      case Kind::kLogLoss:
        return LogLoss(y, p);
      case Kind::kError:
        return p > threshold_ ? 1.0f - y : y;
      case Kind::kPoissonNll: {
        const float py = p < 1e-16f ? 1e-16f : p;
        return std::lgamma(y + 1.0f) + py - std::log(py) * y;
      }
    }
    return 0.0;
  }

  std::string name_;
  Kind kind_;
  float threshold_;
};

}  // namespace

std::unique_ptr<Metric> MakeElementwiseMetric(const std::string& name) {
  if (name == "rmse") return std::make_unique<ElementwiseMetric>(name, Kind::kRmse, 0.5f);
  if (name == "mae") return std::make_unique<ElementwiseMetric>(name, Kind::kMae, 0.5f);
  if (name == "logloss") return std::make_unique<ElementwiseMetric>(name, Kind::kLogLoss, 0.5f);
  if (name == "error") return std::make_unique<ElementwiseMetric>(name, Kind::kError, 0.5f);
  if (name == "poisson-nloglik") {
    return std::make_unique<ElementwiseMetric>(name, Kind::kPoissonNll, 0.5f);
  }
  if (name.rfind("error@", 0) == 0) {
    char* end = nullptr;
    const float t = std::strtof(name.c_str() + 6, &end);
    if (end != name.c_str() + 6 && *end == '\0') {
      return std::make_unique<ElementwiseMetric>(name, Kind::kError, t);
    }
  }
  return nullptr;
}

}  // namespace treering::booster
