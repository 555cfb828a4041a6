// The arithmetic of one coordinate step, as XGBoost 1.7 does it (src/linear/coordinate_common.h),
// with its float and double types kept, so weights agree with XGBoost's to float rounding.
#pragma once

#include <algorithm>

namespace treering::booster::linear {

// A feature's weight change from its gradient sums (elastic net: alpha, lambda already
// multiplied by the instance weight sum). XGBoost compares the hessian sum with 1e-5f.
inline double CoordinateDelta(double sum_grad, double sum_hess, double w, double reg_alpha,
                              double reg_lambda) {
  if (sum_hess < 1e-5f) return 0.0f;
  const double sum_grad_l2 = sum_grad + reg_lambda * w;
  const double sum_hess_l2 = sum_hess + reg_lambda;
  const double tmp = w - sum_grad_l2 / sum_hess_l2;
  if (tmp >= 0) return std::max(-(sum_grad_l2 + reg_alpha) / sum_hess_l2, -w);
  return std::min(-(sum_grad_l2 - reg_alpha) / sum_hess_l2, -w);
}

// The bias has no penalty.
inline double CoordinateDeltaBias(double sum_grad, double sum_hess) { return -sum_grad / sum_hess; }

// Gradient and hessian sums of one feature (or of the bias), doubles as XGBoost sums them.
struct GradSums {
  double grad = 0.0;
  double hess = 0.0;
};

}  // namespace treering::booster::linear
