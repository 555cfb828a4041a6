// simd_kernels.inc built with -mavx2 -mfma (booster/mlp/CMakeLists.txt); used only after
// simd_kernels.cc checked the CPU.
#include "booster/mlp/simd_kernels.h"
#define TREERING_SIMD_NS avx2
#include "simd_kernels.inc"
