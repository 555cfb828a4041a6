// Vector kernels that must give the same bits as the scalar code they replace: glibc's expf and
// the logistic gradient built on it (XGBoost 1.7's float formula). Trees are compared node for
// node with XGBoost and model files must not depend on the thread count, so "close" is not
// good enough; see exp_simd.cc for how exactness is kept.
#pragma once

#include <cstddef>

#include "booster/objective.h"

namespace treering::booster {

// True when the AVX2 + FMA kernels below run: an x86-64 glibc build on a CPU with both. There
// glibc resolves expf to its FMA build (__expf_fma), the function they replicate; elsewhere
// the scalar loops run.
// The answer is fixed at the first call: the CPU has both, and the replica agrees with this
// process's std::exp on kExpHardCases and on a sweep of (-88, 88) (a libm whose expf is not
// glibc's __expf_fma, e.g. with GLIBC_TUNABLES hiding AVX2 or FMA, fails it: the lanes and
// the scalar tails would then disagree, and gradients would depend on the thread split).
bool HaveExactSimdExp();

// The 72 floats of (-88, 88) whose expf rounds closest to a float midpoint (see exp_simd.cc).
extern const float kExpHardCases[72];

// out[i] = std::exp(x[i]) (glibc's expf) bit for bit, for any floats including NaN and +-inf.
void ExpFloats(const float* x, std::size_t n, float* out);

// Logistic gradient pairs of n contiguous rows, exactly what the scalar formula gives:
//   w = weight ? weight[i] : 1, times scale_pos_weight when label[i] == 1,
//   p = 1 / (1 + expf(-margin[i])), grad = (p - y) w, hess = fmax(p (1 - p), 1e-16) w.
// Returns the largest |grad| and |hess| of the block (NaN skipped, starting from 0).
GradientMaxima LogisticGradients(const float* margin, const float* label, const float* weight,
                                 float scale_pos_weight, std::size_t n, GradientPair* out);

// The same with the scalar code only (the reference, and the path on CPUs without AVX2 + FMA).
GradientMaxima LogisticGradientsScalar(const float* margin, const float* label, const float* weight,
                                       float scale_pos_weight, std::size_t n, GradientPair* out);

}  // namespace treering::booster
