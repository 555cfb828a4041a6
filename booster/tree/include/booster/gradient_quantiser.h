// GradientQuantiser: gradient pairs as 64-bit fixed-point integers for histogram sums.
//
// Why: integer addition is associative, so a histogram (and every node sum derived from it by
// subtraction) is bit-identical whatever the thread count, the row blocking or the number of
// ranks that allreduce it. That is what makes models byte-identical across nthread and
// world sizes. The scale is a power of two chosen from the global max |g| and row count so
// that no sum can overflow; every float gradient within 2^18 of the max magnitude converts
// exactly, smaller ones round at 2^-42 of the max (far below float precision of the sums).
#pragma once

#include <cstdint>
#include <vector>

#include "booster/objective.h"

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

class GradientQuantiser {
 public:
  // Scales from the global (allreduced) max |grad|, max hess and row count of `gpair`.
  static GradientQuantiser ForGradients(const std::vector<GradientPair>& gpair,
                                        int nthread = 1);
  // Scales are powers of two, so multiplying by their inverses is exact (and no division).
  GradientQuantiser(double grad_scale, double hess_scale)
      : grad_scale_(grad_scale), hess_scale_(hess_scale), grad_unit_(1.0 / grad_scale),
        hess_unit_(1.0 / hess_scale) {}

  GradientPairInt Quantise(GradientPair g) const;
  // Quantises every pair into *out (resized; its memory is reused from call to call: a fresh
  // 16 MB vector per tree cost page faults on every round) and returns the sum of the pairs
  // of this rank (integer, so independent of the thread split).
  GradientPairInt QuantiseAll(const std::vector<GradientPair>& gpair, int nthread,
                              std::vector<GradientPairInt>* out) const;
  double Grad(std::int64_t q) const { return static_cast<double>(q) * grad_unit_; }
  double Hess(std::int64_t q) const { return static_cast<double>(q) * hess_unit_; }

 private:
  double grad_scale_;
  double hess_scale_;
  double grad_unit_;
  double hess_unit_;
};

// Sum over all ranks of each rank's sum of pairs (what QuantiseAll returned): one allreduce of
// two int64.
GradientPairInt GlobalSum(GradientPairInt local);

}  // namespace treering::booster
