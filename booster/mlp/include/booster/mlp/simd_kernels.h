// The loops that dominate an MLP step outside sgemm: the sparse layer-0 product and gradient,
// and the optimizer updates. src/simd_kernels.inc is compiled twice, for AVX2+FMA (chosen at run
// time when the CPU has them, as OpenBLAS does) and for the portable baseline, so a default
// (non -march=native) build still runs these loops 8 floats wide. The .inc uses plain loops over
// raw pointers only: no inline library code that the two builds could share by ODR.
#pragma once

#include <cstddef>
#include <cstdint>

namespace treering::booster::mlp::simd {

struct SparseRows {
  const std::uint64_t* row_ptr;
  const std::uint32_t* index;
  const float* value;
};

struct Kernels {
  // z[i,:] = shift + sum over row rows[i]'s entries (j, v) of v * w[j,:], for i in [i0, i1).
  void (*sparse_forward)(SparseRows m, const std::uint32_t* rows, std::size_t i0, std::size_t i1,
                         const float* w, int n, const float* shift, float* z);
  // dw[j,:] = -center[j] * g_sum + sum over s in col j of col_value[s] * g[col_row[s],:],
  // for j in [j0, j1).
  void (*sparse_gradient)(const std::uint64_t* col_ptr, const std::uint32_t* col_row,
                          const float* col_value, int j0, int j1, const float* g, int n,
                          const float* center, const float* g_sum, float* dw);
  // v = mu v + g + lambda*mask*p; p -= lr v.
  void (*sgd)(std::size_t n, const std::uint8_t* is_weight, const float* g, float lambda, float mu,
              float lr, float* v, float* p);
  // adam with bias corrections folded into step and inv_c2.
  void (*adam)(std::size_t n, const std::uint8_t* is_weight, const float* g, float lambda, float b1,
               float b2, float step, float inv_c2, float eps, float* m, float* v, float* p);
};

// AVX2+FMA kernels when the CPU supports them, otherwise the baseline build's.
const Kernels& Best();
const Kernels& Baseline();

}  // namespace treering::booster::mlp::simd
