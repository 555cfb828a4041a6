// simd_kernels.inc built with the project's portable flags.
#include "booster/mlp/simd_kernels.h"
#define TREERING_SIMD_NS base
#include "simd_kernels.inc"
