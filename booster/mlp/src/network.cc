#include "booster/mlp/network.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>

#include "base/parallel_for.h"
#include "booster/mlp/simd_kernels.h"
#include "layer_kernels.h"

namespace treering::booster::mlp {
namespace {

// SplitMix64: a tiny, portable generator, so initial weights are the same on every platform.
std::uint64_t SplitMix64(std::uint64_t* state) {
  std::uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

float UniformSymmetric(std::uint64_t* state, float limit) {
  const double u = static_cast<double>(SplitMix64(state) >> 11) * 0x1.0p-53;  // [0, 1)
  return static_cast<float>((2.0 * u - 1.0) * limit);
}

std::size_t Rows(const Batch& b) { return b.rows.size(); }

// z[i,:] = shift + sum over row i's entries (j, v) of v * W0[j,:]; threads take row blocks.
void SparseForward(const Batch& batch, const float* w0, const float* shift, int n, int nthread,
                   float* z) {
  const data::DMatrix& m = *batch.matrix;
  const simd::SparseRows rows{m.row_ptr.data(), m.index.data(), m.value.data()};
  ParallelForBlocks(static_cast<std::int64_t>(batch.rows.size()), nthread,
                    [&](int, std::int64_t i0, std::int64_t i1) {
                      simd::Best().sparse_forward(rows, batch.rows.data(), i0, i1, w0, n, shift, z);
                    });
}

// The batch's entries grouped by feature, so each row of dW0 is written by one thread.
void TransposeBatch(const Batch& batch, int num_inputs, Workspace* ws) {
  const data::DMatrix& m = *batch.matrix;
  ws->col_ptr.assign(static_cast<std::size_t>(num_inputs) + 1, 0);
  for (const std::uint32_t row : batch.rows) {
    for (std::uint64_t e = m.row_ptr[row]; e < m.row_ptr[row + 1]; ++e)
      ++ws->col_ptr[m.index[e] + 1];
  }
  for (int j = 0; j < num_inputs; ++j) ws->col_ptr[j + 1] += ws->col_ptr[j];
  ws->col_row.resize(ws->col_ptr.back());
  ws->col_value.resize(ws->col_ptr.back());
  std::vector<std::uint64_t> next(ws->col_ptr.begin(), ws->col_ptr.end() - 1);
  for (std::size_t i = 0; i < batch.rows.size(); ++i) {
    const std::uint32_t row = batch.rows[i];
    for (std::uint64_t e = m.row_ptr[row]; e < m.row_ptr[row + 1]; ++e) {
      const std::uint64_t slot = next[m.index[e]]++;
      ws->col_row[slot] = static_cast<std::uint32_t>(i);
      ws->col_value[slot] = m.value[e];
    }
  }
}

// dW0[j,:] = sum over the batch's entries of feature j of v * g[i,:], minus center[j] * sum_i g;
// threads take blocks of features.
void SparseWeightGradient(const Workspace& ws, const float* g, const float* center,
                          const float* g_sum, int num_inputs, int n, int nthread, float* dw0) {
  ParallelForBlocks(num_inputs, nthread, [&](int, std::int64_t j0, std::int64_t j1) {
    simd::Best().sparse_gradient(ws.col_ptr.data(), ws.col_row.data(), ws.col_value.data(),
                                 static_cast<int>(j0), static_cast<int>(j1), g, n, center, g_sum,
                                 dw0);
  });
}

}  // namespace

Architecture::Architecture(std::vector<int> widths, Activation activation)
    : widths_(std::move(widths)), activation_(activation) {
  // Last layer first: its gradients are the first ones backward produces.
  std::size_t offset = 0;
  slots_.resize(widths_.size() - 1);
  for (int l = static_cast<int>(slots_.size()) - 1; l >= 0; --l) {
    LayerSlot& s = slots_[static_cast<std::size_t>(l)];
    s.in = widths_[static_cast<std::size_t>(l)];
    s.out = widths_[static_cast<std::size_t>(l) + 1];
    s.weight = offset;
    offset += static_cast<std::size_t>(s.in) * s.out;
    s.bias = offset;
    offset += static_cast<std::size_t>(s.out);
  }
  num_params_ = offset;
}

std::vector<float> InitialParams(const Architecture& arch, std::uint64_t seed) {
  std::vector<float> params(arch.NumParams(), 0.0f);
  std::uint64_t state = seed * 0x2545F4914F6CDD1DULL + 1;
  for (int l = 0; l < arch.NumLayers(); ++l) {  // layer order, whatever the storage order
    const LayerSlot& s = arch.Layer(l);
    const bool relu_follows = arch.activation() == Activation::kRelu && l + 1 < arch.NumLayers();
    const double fan = relu_follows ? s.in : 0.5 * (s.in + s.out);
    const float limit = static_cast<float>(std::sqrt((relu_follows ? 6.0 : 3.0) / fan));
    for (std::size_t i = 0; i < static_cast<std::size_t>(s.in) * s.out; ++i) {
      params[s.weight + i] = UniformSymmetric(&state, limit);
    }
  }
  return params;
}

void InputScaling::ScaleRows(data::DMatrix* m, int nthread) const {
  ParallelFor(m->NumRows(), nthread, [&](std::size_t r) {
    for (std::uint64_t e = m->row_ptr[r]; e < m->row_ptr[r + 1]; ++e) {
      m->value[e] *= inv_std[m->index[e]];
    }
  });
}

void Forward(const Architecture& arch, const float* params, const InputScaling& scaling,
             const Batch& batch, int nthread, Workspace* ws) {
  const int rows = static_cast<int>(Rows(batch));
  const int layers = arch.NumLayers();
  ws->act.resize(static_cast<std::size_t>(layers));
  ws->grad.resize(static_cast<std::size_t>(layers));
  for (int l = 0; l < layers; ++l) {
    ws->act[l].resize(static_cast<std::size_t>(rows) * arch.Layer(l).out);
  }
  // Layer 0: sparse rows, with the standardisation's constant term in the shift.
  const LayerSlot& s0 = arch.Layer(0);
  ws->layer0_shift.assign(params + s0.bias, params + s0.bias + s0.out);
  cblas_sgemv(CblasRowMajor, CblasTrans, s0.in, s0.out, -1.0f, params + s0.weight, s0.out,
              scaling.center.data(), 1, 1.0f, ws->layer0_shift.data(), 1);
  SparseForward(batch, params + s0.weight, ws->layer0_shift.data(), s0.out, nthread,
                ws->act[0].data());
  for (int l = 1; l < layers; ++l) {
    kernels::Activate(arch.activation(), ws->act[l - 1].size(), nthread, ws->act[l - 1].data());
    const LayerSlot& s = arch.Layer(l);
    kernels::DenseForward(ws->act[l - 1].data(), params + s.weight, params + s.bias, rows, s.in,
                          s.out, nthread, ws->act[l].data());
  }
}

void Backward(const Architecture& arch, const float* params, const InputScaling& scaling,
              const Batch& batch, int nthread, Workspace* ws, float* grads) {
  const int rows = static_cast<int>(Rows(batch));
  for (int l = arch.NumLayers() - 1; l >= 1; --l) {
    const LayerSlot& s = arch.Layer(l);
    const float* g = ws->grad[l].data();
    kernels::WeightGradient(ws->act[l - 1].data(), g, rows, s.in, s.out, nthread, grads + s.weight);
    kernels::ColumnSums(g, rows, s.out, grads + s.bias);
    ws->grad[l - 1].resize(static_cast<std::size_t>(rows) * s.in);
    kernels::InputGradient(g, params + s.weight, rows, s.in, s.out, nthread,
                           ws->grad[l - 1].data());
    kernels::ActivationGradient(arch.activation(), ws->act[l - 1].data(), ws->grad[l - 1].size(),
                                nthread, ws->grad[l - 1].data());
  }
  const LayerSlot& s0 = arch.Layer(0);
  kernels::ColumnSums(ws->grad[0].data(), rows, s0.out, grads + s0.bias);
  TransposeBatch(batch, s0.in, ws);
  SparseWeightGradient(*ws, ws->grad[0].data(), scaling.center.data(), grads + s0.bias, s0.in,
                       s0.out, nthread, grads + s0.weight);
}

}  // namespace treering::booster::mlp
