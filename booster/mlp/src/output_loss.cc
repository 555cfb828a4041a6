#include "booster/mlp/output_loss.h"

#include <algorithm>
#include <cmath>

namespace treering::booster::mlp {
namespace {

// Softmax cross-entropy of one row; writes (p - onehot) * w.
double SoftmaxRow(const float* z, int k, int label, float w, float* g) {
  const float top = *std::max_element(z, z + k);
  double sum = 0;
  for (int c = 0; c < k; ++c) {
    g[c] = std::exp(z[c] - top);
    sum += g[c];
  }
  const float inv = static_cast<float>(1.0 / sum);
  for (int c = 0; c < k; ++c) g[c] = g[c] * inv * w;
  g[label] -= w;
  return (std::log(sum) - static_cast<double>(z[label] - top)) * w;
}

// Log loss on sigmoid(z), computed stably from the margin.
double LogisticRow(float z, float y, float w, float* g) {
  const double p = 1.0 / (1.0 + std::exp(-static_cast<double>(z)));
  *g = static_cast<float>((p - y) * w);
  const double softplus =
      std::max(0.0, static_cast<double>(z)) + std::log1p(std::exp(-std::fabs(z)));
  return (softplus - y * static_cast<double>(z)) * w;
}

}  // namespace

LossSum OutputGradient(const std::string& objective, const float* logits, int outputs,
                       const Batch& batch, float* grad) {
  const data::DMatrix& m = *batch.matrix;
  LossSum sum;
  for (std::size_t i = 0; i < batch.rows.size(); ++i) {
    const std::uint32_t row = batch.rows[i];
    const float w = m.Weight(row);
    const float y = m.label[row];
    const float* z = logits + i * outputs;
    float* g = grad + i * outputs;
    if (objective == "binary:logistic") {
      sum.loss += LogisticRow(z[0], y, w, g);
    } else if (objective == "reg:squarederror") {
      g[0] = (z[0] - y) * w;
      sum.loss += 0.5 * static_cast<double>(z[0] - y) * (z[0] - y) * w;
    } else {
      sum.loss += SoftmaxRow(z, outputs, static_cast<int>(y), w, g);
    }
    sum.weight += w;
  }
  return sum;
}

}  // namespace treering::booster::mlp
