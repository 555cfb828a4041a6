// Learning-rate schedule and the parameter update (SGD with momentum, or Adam). The optimizer's
// whole state is its slot vectors and the step count, so it can be saved in the model file and a
// resumed run continues exactly where an uninterrupted one would be.
#pragma once

#include <cstdint>
#include <vector>

#include "booster/mlp/mlp_param.h"

namespace treering::booster::mlp {

// Learning rate at `step` (0-based) of a run of `steps_per_epoch` x param.epochs steps: linear
// warm-up over warmup_epochs, then constant / step decay / cosine to zero. `world` scales the
// peak by sqrt(world) when lr_scaling is on.
double LearningRateAt(const MlpParam& param, std::int64_t step, std::int64_t steps_per_epoch,
                      int world);

class Optimizer {
 public:
  Optimizer(const MlpParam& param, std::size_t num_params);
  // params -= update(grads + lambda * weights); `is_weight[i]` marks non-bias parameters.
  void Step(double lr, const std::vector<std::uint8_t>& is_weight, const float* grads,
            float* params);
  std::int64_t steps() const { return steps_; }
  // State for the model file: slot vectors (1 for sgd, 2 for adam) and steps taken.
  std::vector<std::vector<float>>& slots() { return slots_; }
  const std::vector<std::vector<float>>& slots() const { return slots_; }
  void set_steps(std::int64_t steps) { steps_ = steps; }

 private:
  MlpParam param_;
  std::vector<std::vector<float>> slots_;
  std::int64_t steps_ = 0;
};

}  // namespace treering::booster::mlp
