#include "booster/tree/grow/tree_refresh.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "base/parallel_for.h"
#include "booster/tree/hist/dense_row.h"

namespace treering::booster {
namespace {

// Rows per chunk of the stats pass, and the most chunks: each chunk keeps its own sums (two
// doubles per node of every tree), so their count is bounded and fixed by the row count only.
constexpr std::size_t kChunkRows = 8192;
constexpr std::size_t kMaxChunks = 32;

double ThresholdL1(double g, double alpha) {
  if (g > alpha) return g - alpha;
  if (g < -alpha) return g + alpha;
  return 0.0;
}

// XGBoost's tree/param.h CalcWeight and CalcGain on double sums (the split evaluator's are
// on the quantised sums of the hist grower).
double CalcWeight(const TreeParam& p, double grad, double hess) {
  if (hess < p.min_child_weight || hess <= 0.0) return 0.0;
  double w = -ThresholdL1(grad, p.reg_alpha) / (hess + p.reg_lambda);
  if (p.max_delta_step != 0.0f && std::fabs(w) > p.max_delta_step) {
    w = std::copysign(static_cast<double>(p.max_delta_step), w);
  }
  return w;
}

double CalcGain(const TreeParam& p, double grad, double hess) {
  if (hess < p.min_child_weight || hess <= 0.0) return 0.0;
  if (p.max_delta_step == 0.0f) {
    const double t = ThresholdL1(grad, p.reg_alpha);
    return t * t / (hess + p.reg_lambda);
  }
  const double w = CalcWeight(p, grad, hess);
  const double gain = -(2.0 * grad * w + (hess + p.reg_lambda) * w * w);
  return p.reg_alpha == 0.0f ? gain : gain + p.reg_alpha * std::fabs(w);
}

std::size_t FeatureWidth(const std::vector<RegTree*>& trees) {
  std::size_t width = 0;
  for (const RegTree* t : trees) {
    for (int n = 0; n < t->NumNodes(); ++n) {
      if (!t->IsLeaf(n)) width = std::max<std::size_t>(width, t->split_index[n] + 1);
    }
  }
  return width;
}

// Walks `row` down every tree, adding its gradient pair to each node on the way.
void AddRow(const std::vector<RegTree*>& trees, const std::vector<std::size_t>& offsets,
            const float* row, GradientPair g, double* sums) {
  for (std::size_t t = 0; t < trees.size(); ++t) {
    const RegTree& tree = *trees[t];
    double* s = sums + 2 * offsets[t];
    int node = 0;
    for (;;) {
      s[2 * node] += g.grad;
      s[2 * node + 1] += g.hess;
      if (tree.IsLeaf(node)) break;
      node = NextNode(tree, node, row);
    }
  }
}

void Refresh(const TreeParam& p, float eta, bool refresh_leaf, const double* sums, int node,
             RegTree* tree) {
  const double grad = sums[2 * node], hess = sums[2 * node + 1];
  tree->base_weight[node] = static_cast<float>(CalcWeight(p, grad, hess));
  tree->sum_hess[node] = static_cast<float>(hess);
  if (tree->IsLeaf(node)) {
    if (refresh_leaf) tree->split_cond[node] = tree->base_weight[node] * eta;
    return;
  }
  const int l = tree->left[node], r = tree->right[node];
  tree->loss_change[node] =
      static_cast<float>(CalcGain(p, sums[2 * l], sums[2 * l + 1]) +
                         CalcGain(p, sums[2 * r], sums[2 * r + 1]) - CalcGain(p, grad, hess));
  Refresh(p, eta, refresh_leaf, sums, l, tree);
  Refresh(p, eta, refresh_leaf, sums, r, tree);
}

}  // namespace

void RefreshTrees(const TreeParam& param, const RefreshInput& in, int nthread, rabit::Comm* comm,
                  const std::vector<RegTree*>& trees) {
  if (trees.empty()) return;
  std::vector<std::size_t> offsets;
  std::size_t nodes = 0;
  for (const RegTree* t : trees) {
    offsets.push_back(nodes);
    nodes += static_cast<std::size_t>(t->NumNodes());
  }
  const data::DMatrix& dm = *in.dm;
  const std::size_t rows = dm.NumRows();
  const std::size_t chunks =
      std::clamp<std::size_t>((rows + kChunkRows - 1) / kChunkRows, 1, kMaxChunks);
  std::vector<std::vector<double>> partial(chunks);
  const std::size_t width = FeatureWidth(trees);
  ParallelFor(chunks, std::min<int>(nthread, static_cast<int>(chunks)), [&](std::size_t c) {
    std::vector<double>& sums = partial[c];
    sums.assign(2 * nodes, 0.0);
    DenseRow row(width);
    const std::size_t begin = rows * c / chunks, end = rows * (c + 1) / chunks;
    for (std::size_t r = begin; r < end; ++r) {
      row.Fill(dm, r);
      AddRow(trees, offsets, row.Values(), (*in.gpair)[r], sums.data());
      row.Drop(dm, r);
    }
  });
  std::vector<double>& total = partial[0];
  for (std::size_t c = 1; c < chunks; ++c) {
    for (std::size_t i = 0; i < total.size(); ++i) total[i] += partial[c][i];
  }
  comm->Allreduce<rabit::op::Sum>(total.data(), total.size());
  const float eta = param.eta / static_cast<float>(trees.size());
  for (std::size_t t = 0; t < trees.size(); ++t) {
    Refresh(param, eta, in.refresh_leaf, total.data() + 2 * offsets[t], 0, trees[t]);
  }
}

}  // namespace treering::booster
