// The MLP itself: layer widths, where each layer's weights live in one flat parameter vector,
// initial weights, and the forward / backward passes over a minibatch of sparse LibSVM rows.
//
// Layer 0 multiplies CSR rows by a dense weight matrix (cost proportional to the non-zeros);
// the dense layers go through OpenBLAS sgemm (docs/mlp.md says why OpenBLAS). Threads come only
// from ParallelFor, each output element is written by one thread in a fixed order, so results do
// not depend on scheduling.
//
// Input standardisation x' = (x - mean) / std is applied without densifying rows: the stored
// values are pre-multiplied by 1/std (InputScaling::ScaleRows) and the constant -mean/std part is
// folded into layer 0 as a per-step correction of its bias and weight gradient.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "booster/mlp/mlp_param.h"
#include "data/dmatrix.h"

namespace treering::booster::mlp {

struct LayerSlot {
  int in = 0, out = 0;
  std::size_t weight = 0;  // offset of the in x out row-major weight matrix
  std::size_t bias = 0;    // offset of the out biases
};

// Widths input, hidden..., outputs. Parameters are stored last layer first (the order backward
// produces gradients in), so gradient buckets can be reduced as soon as they are complete.
class Architecture {
 public:
  Architecture() = default;
  Architecture(std::vector<int> widths, Activation activation);
  const std::vector<int>& widths() const { return widths_; }
  Activation activation() const { return activation_; }
  int NumLayers() const { return static_cast<int>(slots_.size()); }
  const LayerSlot& Layer(int l) const { return slots_[static_cast<std::size_t>(l)]; }
  std::size_t NumParams() const { return num_params_; }
  int NumInputs() const { return widths_.front(); }
  int NumOutputs() const { return widths_.back(); }

 private:
  std::vector<int> widths_;
  Activation activation_ = Activation::kRelu;
  std::vector<LayerSlot> slots_;
  std::size_t num_params_ = 0;
};

// He-uniform (relu) or Glorot-uniform (tanh) weights, zero biases, from `seed` alone.
std::vector<float> InitialParams(const Architecture& arch, std::uint64_t seed);

// Per-feature 1/std and mean/std; identity (1 and 0) when standardisation is off.
struct InputScaling {
  std::vector<float> inv_std;
  std::vector<float> center;  // mean * inv_std
  // Multiplies every stored value of `m` by inv_std of its feature (in place, once per matrix).
  void ScaleRows(data::DMatrix* m, int nthread) const;
};

// Minibatch: row ids of a (scaled) matrix.
struct Batch {
  const data::DMatrix* matrix = nullptr;
  std::span<const std::uint32_t> rows;
};

// Reusable per-step buffers (activations and their gradients), grown on demand.
class Workspace {
 public:
  std::vector<std::vector<float>> act;   // act[l]: batch x width[l+1] outputs of layer l
  std::vector<std::vector<float>> grad;  // grad[l]: d loss / d pre-activation of layer l
  std::vector<float> layer0_shift;       // b0 - center^T W0 for this step
  std::vector<float> column_sums;        // sum over rows of grad[0]
  std::vector<std::uint64_t> col_ptr;    // the batch transposed to CSC (layer 0 gradient)
  std::vector<std::uint32_t> col_row;
  std::vector<float> col_value;
};

// Logits of the batch into ws->act.back() (rows x outputs).
void Forward(const Architecture& arch, const float* params, const InputScaling& scaling,
             const Batch& batch, int nthread, Workspace* ws);

// Given ws->grad.back() = d loss / d logits (summed, not averaged, over the batch) after
// Forward, writes d loss / d params into grads (NumParams() values, overwritten).
void Backward(const Architecture& arch, const float* params, const InputScaling& scaling,
              const Batch& batch, int nthread, Workspace* ws, float* grads);

}  // namespace treering::booster::mlp
