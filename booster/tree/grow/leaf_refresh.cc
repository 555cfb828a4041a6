#include "booster/tree/grow/leaf_refresh.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>

#include "base/parallel_for.h"
#include "booster/tree/grow/global_quantile.h"
#include "booster/work_split.h"

namespace treering::booster {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// Indices of `values` by ascending value, ties in input order (std::stable_sort as XGBoost).
std::vector<std::size_t> SortedOrder(const std::vector<float>& values) {
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t l, std::size_t r) { return values[l] < values[r]; });
  return order;
}

// One leaf's rows on this rank: residuals and weights (sampled-out rows left out).
void LeafResiduals(const LeafRefreshInput& in, RowSpan rows, std::vector<float>* residuals,
                   std::vector<float>* weights) {
  residuals->reserve(rows.size());
  const bool weighted = !in.labels.weight->empty();
  const std::size_t columns = in.labels.label_columns;
  const std::size_t column = columns > 1 ? static_cast<std::size_t>(in.group) : 0;
  const auto groups = static_cast<std::size_t>(in.groups);
  for (const std::uint32_t* r = rows.begin; r != rows.end; ++r) {
    if ((*in.gpair)[*r].hess - 0.0f == 0.0f) continue;
    residuals->push_back((*in.labels.label)[*r * columns + column] -
                         (*in.margins)[*r * groups + static_cast<std::size_t>(in.group)]);
    if (weighted) weights->push_back((*in.labels.weight)[*r]);
  }
}

// One leaf's quantile on this rank.
float LocalLeafQuantile(double alpha, const LeafRefreshInput& in, RowSpan rows) {
  std::vector<float> residuals, weights;
  LeafResiduals(in, rows, &residuals, &weights);
  return !in.labels.weight->empty() ? WeightedQuantile(alpha, residuals, weights)
                                    : InterpolatedQuantile(alpha, residuals);
}

// Unweighted rows on several ranks: every leaf gets the quantile of all ranks' residuals in
// it, the value one process computes (issue 34), instead of the mean of the ranks' quantiles.
void RefreshLeavesGlobally(double alpha, const LeafRefreshInput& in, int nthread, rabit::Comm* comm,
                           const std::vector<int>& leaves, RegTree* tree) {
  std::vector<std::vector<float>> residuals(leaves.size());
  ParallelForDynamic(leaves.size(), ThreadsFor(in.margins->size(), nthread), [&](std::size_t k) {
    std::vector<float> unused;
    LeafResiduals(in, in.partition->Rows(leaves[k]), &residuals[k], &unused);
  });
  const std::vector<float> q = GlobalInterpolatedQuantiles(alpha, residuals, nthread, comm);
  for (std::size_t k = 0; k < leaves.size(); ++k) {
    const bool valid = !std::isnan(q[k]);
    if (valid || in.eta != 1.0f) {
      tree->split_cond[leaves[k]] = (valid ? q[k] : tree->split_cond[leaves[k]]) * in.eta;
    }
  }
}

}  // namespace

float InterpolatedQuantile(double alpha, const std::vector<float>& values) {
  const auto n = static_cast<double>(values.size());
  if (values.empty()) return kNaN;
  const std::vector<std::size_t> order = SortedOrder(values);
  auto val = [&](std::size_t i) { return values[order[i]]; };
  if (alpha <= 1 / (n + 1)) return val(0);
  if (alpha >= n / (n + 1)) return val(order.size() - 1);
  const double x = alpha * (n + 1);
  const double k = std::floor(x) - 1;
  const double d = (x - 1) - k;
  const float v0 = val(static_cast<std::size_t>(k));
  const float v1 = val(static_cast<std::size_t>(k) + 1);
  return static_cast<float>(v0 + d * (v1 - v0));
}

float WeightedQuantile(double alpha, const std::vector<float>& values,
                       const std::vector<float>& weights) {
  if (values.empty()) return kNaN;
  const std::vector<std::size_t> order = SortedOrder(values);
  std::vector<float> cdf(values.size());
  cdf[0] = weights[order[0]];
  for (std::size_t i = 1; i < values.size(); ++i) cdf[i] = cdf[i - 1] + weights[order[i]];
  const auto thresh = static_cast<float>(cdf.back() * alpha);
  std::size_t idx = std::lower_bound(cdf.begin(), cdf.end(), thresh) - cdf.begin();
  idx = std::min(idx, values.size() - 1);
  return values[order[idx]];
}

void RefreshLeaves(double alpha, const LeafRefreshInput& in, int nthread, rabit::Comm* comm,
                   RegTree* tree) {
  std::vector<int> leaves;  // ascending node id: the order ranks reduce in
  for (int node = 0; node < tree->NumNodes(); ++node) {
    if (tree->IsLeaf(node)) leaves.push_back(node);
  }
  if (comm->IsDistributed() && in.labels.weight->empty()) {
    RefreshLeavesGlobally(alpha, in, nthread, comm, leaves, tree);
    return;
  }
  std::vector<float> quantiles(leaves.size());
  ParallelForDynamic(leaves.size(), ThreadsFor(in.margins->size(), nthread), [&](std::size_t k) {
    quantiles[k] = LocalLeafQuantile(alpha, in, in.partition->Rows(leaves[k]));
  });
  std::vector<std::int32_t> valid(leaves.size());
  for (std::size_t k = 0; k < leaves.size(); ++k) {
    valid[k] = std::isnan(quantiles[k]) ? 0 : 1;
    if (!valid[k]) quantiles[k] = 0.0f;
  }
  comm->Allreduce<rabit::op::Sum>(valid.data(), valid.size());
  comm->Allreduce<rabit::op::Sum>(quantiles.data(), quantiles.size());
  for (std::size_t k = 0; k < leaves.size(); ++k) {
    // 2.x keeps a leaf no rank has rows in, scaled like the rest (UpdateLeafValues).
    const float q =
        valid[k] > 0 ? quantiles[k] / static_cast<float>(valid[k]) : tree->split_cond[leaves[k]];
    if (valid[k] > 0 || in.eta != 1.0f) tree->split_cond[leaves[k]] = q * in.eta;
  }
}

float MedianBaseScore(const LabelView& labels, rabit::Comm* comm) {
  const std::vector<float>& y = *labels.label;
  double w = 0.0;
  float out = 0.0f;
  if (comm->IsDistributed() && labels.weight->empty()) {
    // The median of every rank's labels (issue 34), through one process's arithmetic.
    std::uint64_t n = y.size();
    comm->Allreduce<rabit::op::Sum>(&n, 1);
    w = static_cast<double>(n);
    const float median = GlobalInterpolatedQuantiles(0.5, {y}, 1, comm)[0];
    if (n == 0) return 0.5f;
    out = static_cast<float>(median * w);
    return static_cast<float>(out / w);
  }
  if (labels.weight->empty()) {
    w = static_cast<double>(y.size());
    if (!y.empty()) out = static_cast<float>(InterpolatedQuantile(0.5, y) * w);
  } else {
    for (float v : *labels.weight) w += v;  // common::Reduce: a double sum in row order
    if (!y.empty()) out = static_cast<float>(WeightedQuantile(0.5, y, *labels.weight) * w);
  }
  comm->Allreduce<rabit::op::Sum>(&out, 1);
  comm->Allreduce<rabit::op::Sum>(&w, 1);
  if (std::fabs(w) < 1e-6) return 0.5f;  // common::CloseTo(w, 0)
  return static_cast<float>(out / w);
}

float QuantileBaseScore(const std::vector<float>& alphas, const LabelView& labels,
                        rabit::Comm* comm) {
  const std::vector<float>& y = *labels.label;
  double sw = 0.0;
  double mean = 0.0;
  if (comm->IsDistributed() && labels.weight->empty()) {
    // Each alpha's quantile of every rank's labels (issue 34), then one process's arithmetic:
    // the same base score on any number of workers.
    std::uint64_t n = y.size();
    comm->Allreduce<rabit::op::Sum>(&n, 1);
    const auto count = static_cast<float>(alphas.size());
    float sum = 0.0f;
    for (float a : alphas) sum += GlobalInterpolatedQuantiles(a, {y}, 1, comm)[0] / count;
    if (n == 0) return 0.0f;
    sw = static_cast<double>(n);
    return static_cast<float>(static_cast<double>(sum) * sw / (sw + 1e-6));
  }
  if (labels.weight->empty()) {
    sw = static_cast<double>(y.size());
  } else {
    for (float v : *labels.weight) sw += v;
  }
  if (!y.empty()) {
    // 2.x's common::Mean over the alphas' quantiles: a float sum of each over the count.
    const auto n = static_cast<float>(alphas.size());
    float sum = 0.0f;
    for (float a : alphas) {
      sum += (labels.weight->empty() ? InterpolatedQuantile(a, y)
                                     : WeightedQuantile(a, y, *labels.weight)) /
             n;
    }
    mean = static_cast<double>(sum) * sw;
  }
  double sums[2] = {mean, sw};
  comm->Allreduce<rabit::op::Sum>(sums, 2);
  return static_cast<float>(sums[0] / (sums[1] + 1e-6));
}

}  // namespace treering::booster
