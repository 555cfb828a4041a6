// The other one-output objectives of XGBoost 1.7: reg:squaredlogerror (regression_loss.h),
// reg:pseudohubererror, reg:gamma, reg:tweedie (regression_obj.cu) and binary:hinge
// (hinge.cu). Each row's pair is computed in float with XGBoost's operations in its order, so
// trees match; label checks give XGBoost's reason plus the first offending row.
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "base/parallel_for.h"
#include "booster/work_split.h"
#include "objective_impl.h"

namespace treering::booster {
namespace {

enum class Kind { kSquaredLog, kPseudoHuber, kGamma, kTweedie, kHinge };

float Sqr(float x) { return x * x; }

class RegressionObjective : public Objective {
 public:
  RegressionObjective(const ObjectiveConfig& c, Kind kind) : config_(c), kind_(kind) {}

  const std::string& Name() const override { return config_.name; }

  Status CheckLabels(const LabelView& labels) const override {
    for (std::size_t i = 0; i < labels.NumRows(); ++i) {
      const float y = (*labels.label)[i];
      if (!std::isfinite(y)) {
        return Status::InvalidInput(config_.name + ": label of row " + std::to_string(i) +
                                    " is not finite");
      }
      if (const char* why = LabelError(y)) {
        return Status::InvalidInput(config_.name + ": " + why + " (row " + std::to_string(i) +
                                    " has " + std::to_string(y) + ")");
      }
    }
    return Status::Ok();
  }

  void GetGradient(const std::vector<float>& margin, const LabelView& labels, const Context& ctx,
                   std::vector<GradientPair>* out) const override {
    out->resize(margin.size());
    ParallelFor(margin.size(), ctx.ThreadsFor(margin.size(), kBoosterGrain), [&](std::size_t i) {
      (*out)[i] = Row(margin[i], (*labels.label)[i], labels.Weight(i));
    });
  }

  void PredTransform(std::vector<float>* values, const Context& ctx) const override {
    if (kind_ == Kind::kSquaredLog || kind_ == Kind::kPseudoHuber) return;
    ParallelFor(values->size(), ctx.ThreadsFor(values->size(), kBoosterGrain), [&](std::size_t i) {
      float& v = (*values)[i];
      v = kind_ == Kind::kHinge ? (v > 0.0f ? 1.0f : 0.0f) : std::exp(v);
    });
  }

  // Gamma and Tweedie model log(mean): base_score is a mean (log taken), the others a margin.
  Result<float> ProbToMargin(float base_score) const override {
    if (kind_ != Kind::kGamma && kind_ != Kind::kTweedie) return base_score;
    if (!(base_score > 0.0f)) {
      return Status::InvalidInput("base_score must be > 0 for " + config_.name);
    }
    return std::log(base_score);
  }

  std::string DefaultMetric() const override {
    switch (kind_) {
      case Kind::kSquaredLog:
        return "rmsle";
      case Kind::kPseudoHuber:
        return "mphe";
      case Kind::kGamma:
        return "gamma-nloglik";
      case Kind::kTweedie: {
        std::ostringstream os;  // XGBoost prints rho with the stream's default 6 digits
        os << "tweedie-nloglik@" << config_.tweedie_variance_power;
        return os.str();
      }
      case Kind::kHinge:
        return "error";
    }
    return "rmse";
  }

 private:
  // XGBoost 1.7's message for a label the objective rejects, or nullptr.
  const char* LabelError(float y) const {
    switch (kind_) {
      case Kind::kSquaredLog:
        return y > -1.0f ? nullptr
                         : "label must be greater than -1 for rmsle so that log(label + 1) can "
                           "be valid";
      case Kind::kGamma:
        return y > 0.0f ? nullptr : "label must be positive";
      case Kind::kTweedie:
        return y >= 0.0f ? nullptr : "label must be nonnegative";
      case Kind::kHinge:  // hinge.cu does not check; y * 2 - 1 assumes 0/1 labels
        return y == 0.0f || y == 1.0f ? nullptr : "label must be 0 or 1";
      case Kind::kPseudoHuber:
        return nullptr;
    }
    return nullptr;
  }

  GradientPair Row(float p, float y, float w) const {
    switch (kind_) {
      case Kind::kSquaredLog: {
        // RegLossObj scales label-1 rows by scale_pos_weight for every loss.
        if (y == 1.0f) w *= config_.scale_pos_weight;
        const float predt = std::fmax(p, static_cast<float>(-1 + 1e-6));
        const float grad = (std::log1p(predt) - std::log1p(y)) / (predt + 1);
        float hess = (-std::log1p(predt) + std::log1p(y) + 1) / std::pow(predt + 1, 2);
        hess = std::fmax(hess, 1e-6f);
        return {grad * w, hess * w};
      }
      case Kind::kPseudoHuber: {
        const float slope = config_.huber_slope;
        const float z = p - y;
        const float scale_sqrt = std::sqrt(1 + Sqr(z) / Sqr(slope));
        const float grad = z / scale_sqrt;
        const float scale = Sqr(slope) + Sqr(z);
        const float hess = Sqr(slope) / (scale * scale_sqrt);
        return {grad * w, hess * w};
      }
      case Kind::kGamma:
        return {(1 - y / std::exp(p)) * w, y / std::exp(p) * w};
      case Kind::kTweedie: {
        const float rho = config_.tweedie_variance_power;
        const float grad = -y * std::exp((1 - rho) * p) + std::exp((2 - rho) * p);
        const float hess =
            -y * (1 - rho) * std::exp((1 - rho) * p) + (2 - rho) * std::exp((2 - rho) * p);
        return {grad * w, hess * w};
      }
      case Kind::kHinge: {
        const float sign = static_cast<float>(y * 2.0 - 1.0);
        if (p * sign < 1.0) return {-sign * w, w};
        return {0.0f, std::numeric_limits<float>::min()};
      }
    }
    return {};
  }

  ObjectiveConfig config_;
  Kind kind_;
};

}  // namespace

std::unique_ptr<Objective> MakeRegressionObjective(const ObjectiveConfig& config) {
  const std::string& n = config.name;
  Kind kind;
  if (n == "reg:squaredlogerror") {
    kind = Kind::kSquaredLog;
  } else if (n == "reg:pseudohubererror") {
    kind = Kind::kPseudoHuber;
  } else if (n == "reg:gamma") {
    kind = Kind::kGamma;
  } else if (n == "reg:tweedie") {
    kind = Kind::kTweedie;
  } else if (n == "binary:hinge") {
    kind = Kind::kHinge;
  } else {
    return nullptr;
  }
  return std::make_unique<RegressionObjective>(config, kind);
}

}  // namespace treering::booster
