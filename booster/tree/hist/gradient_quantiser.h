// GradientQuantiser: gradient pairs as 64-bit fixed-point integers for histogram sums.
//
// Why: integer addition is associative, so a histogram (and every node sum derived from it by
// subtraction) is bit-identical whatever the thread count, the row blocking or the number of
// ranks that allreduce it. That is what makes models byte-identical across nthread and
// world sizes. The scale is a power of two chosen from the global max |g| and row count so
// that no sum can overflow; every float gradient within 2^18 of the max magnitude converts
// exactly, smaller ones round at 2^-42 of the max (far below float precision of the sums).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#include "booster/objective.h"
#include "rabit/comm.h"

namespace treering::booster {

struct GradientPairInt {
  std::int64_t grad = 0;
  std::int64_t hess = 0;
  GradientPairInt& operator+=(const GradientPairInt& o) {
    grad += o.grad;
    hess += o.hess;
    return *this;
  }
  friend GradientPairInt operator-(GradientPairInt a, const GradientPairInt& b) {
    a.grad -= b.grad;
    a.hess -= b.hess;
    return a;
  }
  friend bool operator==(const GradientPairInt& a, const GradientPairInt& b) {
    return a.grad == b.grad && a.hess == b.hess;
  }
};

// Round to nearest, ties to even: std::llrint in the default rounding mode. On x86-64 one
// cvtsd2si instruction; GCC calls llrint through the PLT instead (errno semantics), which was
// the costliest part of quantising a round's gradients.
inline std::int64_t RoundToInt(double v) {
#if defined(__x86_64__)
  return _mm_cvtsd_si64(_mm_set_sd(v));
#else
  return std::llrint(v);
#endif
}

class GradientQuantiser {
 public:
  // Scales from the global (allreduced) max |grad|, max hess and row count of `gpair`.
  static GradientQuantiser ForGradients(const std::vector<GradientPair>& gpair, int nthread,
                                        rabit::Comm& comm);
  // The same from this rank's maxima and row count, already known (the objective took them
  // while computing the gradients): a collective, like ForGradients.
  static GradientQuantiser FromLocalMaxima(GradientMaxima local, std::size_t rows,
                                           rabit::Comm& comm);
  // Scales are powers of two, so multiplying by their inverses is exact (and no division).
  GradientQuantiser(double grad_scale, double hess_scale)
      : grad_scale_(grad_scale),
        hess_scale_(hess_scale),
        grad_unit_(1.0 / grad_scale),
        hess_unit_(1.0 / hess_scale) {}

  // Inline: the histogram kernel quantises each row's pair as it reads it (two conversions
  // per row against 28+ bin updates), instead of a pass writing 16 bytes per row that the
  // kernel then reads back (one more pass over the rows, and twice the bytes per scattered
  // row fetch).
  GradientPairInt Quantise(GradientPair g) const {
    return {RoundToInt(static_cast<double>(g.grad) * grad_scale_),
            RoundToInt(static_cast<double>(g.hess) * hess_scale_)};
  }
  double Grad(std::int64_t q) const { return static_cast<double>(q) * grad_unit_; }
  double Hess(std::int64_t q) const { return static_cast<double>(q) * hess_unit_; }
  double GradUnit() const { return grad_unit_; }
  double HessUnit() const { return hess_unit_; }

 private:
  double grad_scale_;
  double hess_scale_;
  double grad_unit_;
  double hess_unit_;
};

// Sum over all ranks of each rank's sum of quantised pairs (what HistogramBuilder::Build
// returned for the root): one allreduce of two int64.
GradientPairInt GlobalSum(GradientPairInt local, rabit::Comm& comm);

}  // namespace treering::booster
