#include "booster/mlp/simd_kernels.h"

namespace treering::booster::mlp::simd {
namespace avx2 {
extern const Kernels kKernels;
}
namespace base {
extern const Kernels kKernels;
}

const Kernels& Baseline() { return base::kKernels; }

const Kernels& Best() {
  static const Kernels& chosen = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")
                                     ? avx2::kKernels
                                     : base::kKernels;
  return chosen;
}

}  // namespace treering::booster::mlp::simd
