// Row-wise metrics (XGBoost 1.7 metric/elementwise_metric.cu): weighted mean of a row loss
// computed in float as XGBoost does, sqrt for rmse and rmsle, twice the mean for
// gamma-deviance.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "metric_impl.h"

namespace treering::booster {
namespace {

enum class Kind {
  kRmse,
  kRmsle,
  kMae,
  kMape,
  kPseudoHuber,
  kLogLoss,
  kError,
  kPoissonNll,
  kGammaNll,
  kGammaDeviance,
  kTweedieNll
};

constexpr float kRtEps = 1e-6f;  // XGBoost's kRtEps (gamma-deviance keeps logs finite)

float LogLoss(float y, float py) {
  const float eps = 1e-16f;
  const float pneg = 1.0f - py;
  if (py < eps) return -y * std::log(eps) - (1.0f - y) * std::log(1.0f - eps);
  if (pneg < eps) return -y * std::log(1.0f - eps) - (1.0f - y) * std::log(eps);
  return -y * std::log(py) - (1.0f - y) * std::log(pneg);
}

class ElementwiseMetric : public Metric {
 public:
  // param: error's threshold, mphe's huber_slope or tweedie's variance power.
  ElementwiseMetric(std::string name, Kind kind, float param)
      : name_(std::move(name)), kind_(kind), param_(param) {}

  const std::string& Name() const override { return name_; }

  Result<double> Evaluate(const std::vector<float>& preds, int groups, const LabelView& labels,
                          const Context& ctx, rabit::Comm& comm) const override {
    if (groups != 1) {
      return Status::InvalidInput("eval_metric " + name_ + " needs a one-output objective");
    }
    const WeightedSum local = SumRows(labels.NumRows(), ctx.Threads(), [&](std::size_t row) {
      const float w = labels.Weight(row);
      return WeightedSum{w * RowLoss((*labels.label)[row], preds[row]), w};
    });
    const double mean = GlobalMean(local, comm);
    if (kind_ == Kind::kRmse || kind_ == Kind::kRmsle) return std::sqrt(mean);
    if (kind_ == Kind::kGammaDeviance) return 2 * mean;
    return mean;
  }

 private:
  float RowLoss(float y, float p) const {
    switch (kind_) {
      case Kind::kRmse: {
        const float diff = y - p;
        return diff * diff;
      }
      case Kind::kRmsle: {
        const float diff = std::log1p(y) - std::log1p(p);
        return diff * diff;
      }
      case Kind::kMae:
        return std::fabs(y - p);
      case Kind::kMape:
        return std::fabs((y - p) / y);
      case Kind::kPseudoHuber: {
        const float a = y - p;
        return param_ * param_ * (std::sqrt(1 + (a / param_) * (a / param_)) - 1);
      }
      case Kind::kLogLoss:
        return LogLoss(y, p);
      case Kind::kError:
        return p > param_ ? 1.0f - y : y;
      case Kind::kPoissonNll: {
        const float py = p < 1e-16f ? 1e-16f : p;
        return std::lgamma(y + 1.0f) + py - std::log(py) * y;
      }
      case Kind::kGammaNll: {
        const float py = std::max(p, 1e-6f);
        const float theta = -1.0 / py;
        const float b = -std::log(-theta);
        return -((y * theta - b) / 1.0f + 0.0f);  // dispersion psi = 1, c = 0 as XGBoost
      }
      case Kind::kGammaDeviance: {
        const float predt = p + kRtEps;
        const float label = y + kRtEps;
        return std::log(predt / label) + label / predt - 1;
      }
      case Kind::kTweedieNll: {
        const float rho = param_;
        const float a = y * std::exp((1 - rho) * std::log(p)) / (1 - rho);
        const float b = std::exp((2 - rho) * std::log(p)) / (2 - rho);
        return -a + b;
      }
    }
    return 0.0f;
  }

  std::string name_;
  Kind kind_;
  float param_;
};

}  // namespace

Result<std::unique_ptr<Metric>> MakeTweedieMetric(const std::string& name) {
  const std::string prefix = "tweedie-nloglik@";
  char* end = nullptr;
  const char* p = name.c_str() + prefix.size();
  const float rho = name.rfind(prefix, 0) == 0 ? std::strtof(p, &end) : 0.0f;
  if (end == nullptr || end == p || *end != '\0' || !(rho >= 1.0f && rho < 2.0f)) {
    return Status::InvalidInput("parameter eval_metric: '" + name +
                                "' must be tweedie-nloglik@p with p in [1, 2)");
  }
  std::ostringstream printed;  // XGBoost names it with the stream's 6 digits of rho
  printed << prefix << rho;
  return std::unique_ptr<Metric>(
      std::make_unique<ElementwiseMetric>(printed.str(), Kind::kTweedieNll, rho));
}

std::unique_ptr<Metric> MakeElementwiseMetric(const std::string& name, const MetricConfig& config) {
  static const std::vector<std::pair<std::string, Kind>> kPlain = {
      {"rmse", Kind::kRmse},
      {"rmsle", Kind::kRmsle},
      {"mae", Kind::kMae},
      {"mape", Kind::kMape},
      {"gamma-nloglik", Kind::kGammaNll},
      {"gamma-deviance", Kind::kGammaDeviance}};
  for (const auto& [n, kind] : kPlain) {
    if (name == n) return std::make_unique<ElementwiseMetric>(name, kind, 0.5f);
  }
  if (name == "mphe") {
    return std::make_unique<ElementwiseMetric>(name, Kind::kPseudoHuber, config.huber_slope);
  }
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
