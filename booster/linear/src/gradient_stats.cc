#include "booster/linear/gradient_stats.h"

#include "base/parallel_for.h"
#include "booster/work_split.h"

namespace treering::booster::linear {
namespace {

// Sums fn(i) over [0, n) in blocks of GradientStats::kBlock (see the header).
template <typename Fn>
GradSums BlockSums(std::size_t n, int nthread, Fn&& fn) {
  const std::size_t blocks = (n + GradientStats::kBlock - 1) / GradientStats::kBlock;
  if (blocks <= 1) {
    GradSums s;
    fn(0, n, &s);
    return s;
  }
  std::vector<GradSums> partial(blocks);
  ParallelFor(blocks, nthread, [&](std::size_t b) {
    const std::size_t begin = b * GradientStats::kBlock;
    fn(begin, std::min(n, begin + GradientStats::kBlock), &partial[b]);
  });
  GradSums total;
  for (const GradSums& p : partial) {
    total.grad += p.grad;
    total.hess += p.hess;
  }
  return total;
}

}  // namespace

void GradientStats::Reduce(GradSums* sums, std::size_t n) const {
  if (!comm_->IsDistributed()) return;
  static_assert(sizeof(GradSums) == 2 * sizeof(double));
  comm_->Allreduce<rabit::op::Sum>(reinterpret_cast<double*>(sums), 2 * n);
}

GradSums GradientStats::Bias(int group, const std::vector<GradientPair>& gpair) const {
  const std::size_t rows = gpair.size() / static_cast<std::size_t>(groups_);
  GradSums s = BlockSums(rows, ThreadsFor(rows, ctx_->Threads()),
                         [&](std::size_t begin, std::size_t end, GradSums* out) {
                           for (std::size_t r = begin; r < end; ++r) {
                             const GradientPair& p = gpair[r * groups_ + group];
                             if (p.hess < 0.0f) continue;
                             out->grad += p.grad;
                             out->hess += p.hess;
                           }
                         });
  Reduce(&s, 1);
  return s;
}

// XGBoost's products are float (grad * v, hess * v * v), added to double sums.
GradSums GradientStats::ColumnSums(std::size_t feature, int group,
                                   const std::vector<GradientPair>& gpair, int nthread) const {
  const std::uint64_t first = columns_->Begin(feature);
  const std::uint32_t* row = columns_->row.data() + first;
  const float* value = columns_->value.data() + first;
  return BlockSums(columns_->End(feature) - first, nthread,
                   [&](std::size_t begin, std::size_t end, GradSums* out) {
                     for (std::size_t j = begin; j < end; ++j) {
                       const float v = value[j];
                       const GradientPair& p = gpair[std::size_t{row[j]} * groups_ + group];
                       if (p.hess < 0.0f) continue;
                       out->grad += p.grad * v;
                       out->hess += p.hess * v * v;
                     }
                   });
}

GradSums GradientStats::Feature(std::size_t feature, int group,
                                const std::vector<GradientPair>& gpair) const {
  const std::size_t n = columns_->End(feature) - columns_->Begin(feature);
  GradSums s = ColumnSums(feature, group, gpair, ThreadsFor(n, ctx_->Threads()));
  Reduce(&s, 1);
  return s;
}

void GradientStats::AllFeatures(int group, const std::vector<GradientPair>& gpair,
                                std::vector<GradSums>* out) const {
  const std::size_t features = columns_->NumFeatures();
  const int first = group < 0 ? 0 : group;
  const int count = group < 0 ? groups_ : 1;
  out->assign(features * count, GradSums{});
  // One thread per feature: each column is summed whole, in order (XGBoost's selectors).
  ParallelFor(features, ThreadsFor(columns_->row.size() * count, ctx_->Threads()),
              [&](std::size_t f) {
                for (int g = 0; g < count; ++g) {
                  (*out)[g * features + f] = ColumnSums(f, first + g, gpair, 1);
                }
              });
  Reduce(out->data(), out->size());
}

void GradientStats::ApplyBias(int group, float dbias, std::vector<GradientPair>* gpair) const {
  if (dbias == 0.0f) return;
  const std::size_t rows = gpair->size() / static_cast<std::size_t>(groups_);
  GradientPair* g = gpair->data();
  ParallelFor(rows, ThreadsFor(rows, ctx_->Threads()), [&](std::size_t r) {
    GradientPair& p = g[r * groups_ + group];
    if (p.hess < 0.0f) return;
    p.grad += p.hess * dbias;
  });
}

void GradientStats::ApplyFeature(std::size_t feature, int group, float dw,
                                 std::vector<GradientPair>* gpair) const {
  if (dw == 0.0f) return;
  const std::uint64_t first = columns_->Begin(feature);
  const std::size_t n = columns_->End(feature) - first;
  const std::uint32_t* row = columns_->row.data() + first;
  const float* value = columns_->value.data() + first;
  GradientPair* g = gpair->data();
  ParallelFor(n, ThreadsFor(n, ctx_->Threads()), [&](std::size_t j) {
    GradientPair& p = g[std::size_t{row[j]} * groups_ + group];
    if (p.hess < 0.0f) return;
    p.grad += p.hess * value[j] * dw;
  });
}

double GradientStats::WeightSum(const std::vector<float>& weights, std::size_t rows) const {
  double sum = 0.0;
  for (std::size_t i = 0; i < rows; ++i) sum += weights.empty() ? 1.0f : weights[i];
  if (comm_->IsDistributed()) comm_->Allreduce<rabit::op::Sum>(&sum, 1);
  return sum;
}

}  // namespace treering::booster::linear
