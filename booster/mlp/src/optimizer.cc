#include "booster/mlp/optimizer.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "booster/mlp/simd_kernels.h"

namespace treering::booster::mlp {

double LearningRateAt(const MlpParam& param, std::int64_t step, std::int64_t steps_per_epoch,
                      int world) {
  const double peak = param.learning_rate * (param.lr_scaling ? std::sqrt(world) : 1.0);
  const double warmup = param.warmup_epochs * static_cast<double>(steps_per_epoch);
  const double t = static_cast<double>(step) + 1.0;  // the first step already moves
  if (t <= warmup) return peak * t / warmup;
  const double total = static_cast<double>(steps_per_epoch) * param.epochs;
  switch (param.lr_schedule) {
    case LrSchedule::kConstant:
      return peak;
    case LrSchedule::kStep: {
      const std::int64_t epoch = steps_per_epoch > 0 ? step / steps_per_epoch : 0;
      return peak *
             std::pow(param.lr_step_gamma, static_cast<double>(epoch / param.lr_step_epochs));
    }
    case LrSchedule::kCosine: {
      const double span = std::max(1.0, total - warmup);
      const double progress = std::clamp((t - warmup) / span, 0.0, 1.0);
      return peak * 0.5 * (1.0 + std::cos(std::numbers::pi * progress));
    }
  }
  return peak;
}

Optimizer::Optimizer(const MlpParam& param, std::size_t num_params) : param_(param) {
  const int count = param.optimizer == OptimizerKind::kAdam ? 2 : 1;
  slots_.assign(static_cast<std::size_t>(count), std::vector<float>(num_params, 0.0f));
}

void Optimizer::Step(double lr, const std::vector<std::uint8_t>& is_weight, const float* grads,
                     float* params) {
  ++steps_;
  const std::size_t n = slots_[0].size();
  const float lambda = static_cast<float>(param_.lambda);
  const float rate = static_cast<float>(lr);
  if (param_.optimizer == OptimizerKind::kSgd) {  // PyTorch's SGD: v = mu v + g; p -= lr v
    simd::Best().sgd(n, is_weight.data(), grads, lambda, static_cast<float>(param_.momentum), rate,
                     slots_[0].data(), params);
    return;
  }
  const double t = static_cast<double>(steps_);
  const auto step = static_cast<float>(lr / (1.0 - std::pow(param_.adam_beta1, t)));
  const auto inv_c2 = static_cast<float>(1.0 / (1.0 - std::pow(param_.adam_beta2, t)));
  simd::Best().adam(n, is_weight.data(), grads, lambda, static_cast<float>(param_.adam_beta1),
                    static_cast<float>(param_.adam_beta2), step, inv_c2,
                    static_cast<float>(param_.adam_epsilon), slots_[0].data(), slots_[1].data(),
                    params);
}

}  // namespace treering::booster::mlp
