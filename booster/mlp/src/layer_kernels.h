// The arithmetic of one layer, as plain functions over row-major float arrays. Dense products
// call OpenBLAS sgemm with one OpenBLAS thread per call; parallelism comes from ParallelFor
// splitting rows, so every output element is computed by exactly one call.
#pragma once

#include <cstddef>
#include <cstdint>

#include "booster/mlp/mlp_param.h"

namespace treering::booster::mlp::kernels {

// out[rows x n] = bias (broadcast) + a[rows x k] * w[k x n].
void DenseForward(const float* a, const float* w, const float* bias, int rows, int k, int n,
                  int nthread, float* out);
// dw[k x n] = a^T * g  with a: rows x k, g: rows x n.
void WeightGradient(const float* a, const float* g, int rows, int k, int n, int nthread, float* dw);
// da[rows x k] = g[rows x n] * w^T.
void InputGradient(const float* g, const float* w, int rows, int k, int n, int nthread, float* da);
// sums[n] = column sums of g[rows x n] (rows added in order).
void ColumnSums(const float* g, int rows, int n, float* sums);

// In place: hidden-layer activation of rows x n values.
void Activate(Activation act, std::size_t count, int nthread, float* values);
// g *= activation'(x), where `post` holds the activation's outputs.
void ActivationGradient(Activation act, const float* post, std::size_t count, int nthread,
                        float* g);

// Initialises OpenBLAS for our use: one thread per call (we split work ourselves).
void UseSingleThreadedBlas();

}  // namespace treering::booster::mlp::kernels
