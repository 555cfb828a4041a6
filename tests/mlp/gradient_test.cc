// Backward against central finite differences of the loss, for every parameter of a small
// network, each objective and both activations, with standardisation's centring active (so the
// folded layer-0 correction is checked too).
#include <cmath>
#include <numeric>

#include <gtest/gtest.h>

#include "booster/mlp/network.h"
#include "booster/mlp/output_loss.h"
#include "booster/mlp/simd_kernels.h"
#include "synthetic.h"

namespace treering::booster::mlp {
namespace {

struct Case {
  std::string objective;
  Activation activation;
  int outputs;
};

class GradientTest : public ::testing::TestWithParam<Case> {};

double LossOf(const Architecture& arch, const std::vector<float>& params,
              const InputScaling& scaling, const Batch& batch, const std::string& objective) {
  Workspace ws;
  Forward(arch, params.data(), scaling, batch, 1, &ws);
  std::vector<float> g(ws.act.back().size());
  return OutputGradient(objective, ws.act.back().data(), arch.NumOutputs(), batch, g.data()).loss;
}

TEST_P(GradientTest, MatchesCentralDifferences) {
  const Case c = GetParam();
  const bool regression = c.objective == "reg:squarederror";
  const int classes = c.objective == "binary:logistic" ? 2 : 3;
  data::DMatrix m = testing::SyntheticRows(8, 6, classes, 11, regression);
  InputScaling scaling{{0.5f, 1.5f, 0.8f, 1.0f, 0.3f, 2.0f},
                       {0.2f, -0.4f, 0.7f, 0.0f, 0.1f, -0.3f}};
  scaling.ScaleRows(&m, 1);
  const Architecture arch({6, 5, 4, c.outputs}, c.activation);
  std::vector<float> params = InitialParams(arch, 3);
  for (std::size_t i = 0; i < params.size(); ++i)
    params[i] += 0.05f * std::sin(1.0f + i);  // biases too
  std::vector<std::uint32_t> rows(m.NumRows());
  std::iota(rows.begin(), rows.end(), 0u);
  const Batch batch{&m, rows};

  Workspace ws;
  Forward(arch, params.data(), scaling, batch, 2, &ws);
  ws.grad.back().resize(ws.act.back().size());
  OutputGradient(c.objective, ws.act.back().data(), arch.NumOutputs(), batch,
                 ws.grad.back().data());
  std::vector<float> grads(arch.NumParams());
  Backward(arch, params.data(), scaling, batch, 2, &ws, grads.data());

  const float eps = 3e-3f;
  const double base = LossOf(arch, params, scaling, batch, c.objective);
  int kinks = 0;
  for (std::size_t k = 0; k < params.size(); ++k) {
    std::vector<float> plus = params, minus = params;
    plus[k] += eps;
    minus[k] -= eps;
    const double up = LossOf(arch, plus, scaling, batch, c.objective);
    const double down = LossOf(arch, minus, scaling, batch, c.objective);
    const double fd = (up - down) / (2.0 * eps);
    // A relu switching inside [-eps, eps] makes the one-sided slopes disagree: not comparable.
    if (std::fabs((up - base) - (base - down)) / eps > 0.05 * (1.0 + std::fabs(fd))) {
      ++kinks;
      continue;
    }
    EXPECT_NEAR(grads[k], fd, 3e-3 + 1e-2 * std::fabs(fd)) << "parameter " << k;
  }
  EXPECT_LE(kinks, 3) << "too few parameters compared";
}

INSTANTIATE_TEST_SUITE_P(Objectives, GradientTest,
                         ::testing::Values(Case{"multi:softmax", Activation::kTanh, 3},
                                           Case{"multi:softprob", Activation::kRelu, 3},
                                           Case{"binary:logistic", Activation::kTanh, 1},
                                           Case{"reg:squarederror", Activation::kRelu, 1}));

TEST(Architecture, StoresLastLayerFirstAndCountsParameters) {
  const Architecture arch({784, 256, 128, 10}, Activation::kRelu);
  EXPECT_EQ(arch.NumParams(), 784u * 256 + 256 + 256 * 128 + 128 + 128 * 10 + 10);
  EXPECT_EQ(arch.Layer(2).weight, 0u);  // the output layer's gradients come first in backward
  EXPECT_EQ(arch.Layer(2).bias, 1280u);
  EXPECT_EQ(arch.Layer(0).bias + 256, arch.NumParams());
}

}  // namespace
}  // namespace treering::booster::mlp

namespace treering::booster::mlp {
namespace {

// The AVX2 build of the hot loops (when this CPU runs it) agrees with the portable build.
TEST(SimdKernels, BestAgreesWithBaseline) {
  const data::DMatrix m = testing::SyntheticRows(9, 70, 3, 8);
  const simd::SparseRows rows{m.row_ptr.data(), m.index.data(), m.value.data()};
  std::vector<std::uint32_t> ids(m.NumRows());
  std::iota(ids.begin(), ids.end(), 0u);
  const int n = 100;  // not a multiple of the vector width
  std::vector<float> w(70 * n), shift(n);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = std::sin(0.37f * i);
  for (int c = 0; c < n; ++c) shift[c] = 0.01f * c;
  std::vector<float> a(ids.size() * n), b(ids.size() * n);
  simd::Best().sparse_forward(rows, ids.data(), 0, ids.size(), w.data(), n, shift.data(), a.data());
  simd::Baseline().sparse_forward(rows, ids.data(), 0, ids.size(), w.data(), n, shift.data(),
                                  b.data());
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-4f * (1 + std::fabs(b[i])));
  std::vector<float> p1(w), p2(w), v1(w.size(), 0.1f), v2(w.size(), 0.1f),
      g(shift.begin(), shift.end());
  g.resize(w.size(), 0.5f);
  std::vector<std::uint8_t> mask(w.size(), 1);
  simd::Best().sgd(w.size(), mask.data(), g.data(), 0.01f, 0.9f, 0.1f, v1.data(), p1.data());
  simd::Baseline().sgd(w.size(), mask.data(), g.data(), 0.01f, 0.9f, 0.1f, v2.data(), p2.data());
  for (std::size_t i = 0; i < p1.size(); ++i) EXPECT_NEAR(p1[i], p2[i], 1e-6f);
}

}  // namespace
}  // namespace treering::booster::mlp
