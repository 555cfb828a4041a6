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

// A dense column's sums with four interleaved accumulators, added in a fixed order at the end:
// one chain of dependent double additions ran at a third of the loads' speed (perf: 39% of a
// higgs1m run). The sum differs from XGBoost's one-chain order only in double rounding (1e-16
// relative), which the float weight step almost never sees; it depends on neither threads nor
// ranks' row counts beyond their blocks.
void DenseSums(const GradientPair* g, std::size_t stride, const float* value, std::size_t begin,
               std::size_t end, GradSums* out) {
  double sg[4] = {0, 0, 0, 0}, sh[4] = {0, 0, 0, 0};
  std::size_t j = begin;
  for (; j + 4 <= end; j += 4) {
    for (int k = 0; k < 4; ++k) {
      const float v = value[j + k];
      const GradientPair& p = g[(j + k) * stride];
      const bool keep = p.hess >= 0.0f;
      sg[k] += keep ? p.grad * v : 0.0f;
      sh[k] += keep ? p.hess * v * v : 0.0f;
    }
  }
  for (; j < end; ++j) {
    const float v = value[j];
    const GradientPair& p = g[j * stride];
    if (p.hess < 0.0f) continue;
    sg[0] += p.grad * v;
    sh[0] += p.hess * v * v;
  }
  out->grad += (sg[0] + sg[1]) + (sg[2] + sg[3]);
  out->hess += (sh[0] + sh[1]) + (sh[2] + sh[3]);
}

}  // namespace

// Threads for one step's pass over a column or the bias's rows. Such a pass is short (a 1M-row
// dense column: ~1 ms on one core) and coordinate descent needs its result before the next
// step, so each pass is a fork and a join; on a busy machine a join waits for a descheduled
// thread a scheduler slice, which made 2 threads 3.5x slower than 1 on higgs1m under load.
// Passes get threads only from kStepGrain entries on (the whole round's margins and gradients
// are parallel above the learners' usual grain).
int GradientStats::StepThreads(std::size_t work, int threads) {
  constexpr std::uint64_t kStepGrain = std::uint64_t{1} << 22;
  return treering::ThreadsFor(work, threads, WorkGrain{kStepGrain, kStepGrain / 4});
}

void GradientStats::Reduce(GradSums* sums, std::size_t n) const {
  if (!comm_->IsDistributed()) return;
  static_assert(sizeof(GradSums) == 2 * sizeof(double));
  comm_->Allreduce<rabit::op::Sum>(reinterpret_cast<double*>(sums), 2 * n);
}

GradSums GradientStats::Bias(int group, const std::vector<GradientPair>& gpair) const {
  const std::size_t rows = gpair.size() / static_cast<std::size_t>(groups_);
  GradSums s = BlockSums(rows, StepThreads(rows, ctx_->Threads()),
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
  if (columns_->IsDense(feature)) {  // row j is entry j: no gather
    const GradientPair* g = gpair.data() + group;
    const std::size_t stride = static_cast<std::size_t>(groups_);
    return BlockSums(columns_->num_rows, nthread,
                     [&](std::size_t begin, std::size_t end, GradSums* out) {
                       DenseSums(g, stride, value, begin, end, out);
                     });
  }
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
  GradSums s = ColumnSums(feature, group, gpair, StepThreads(n, ctx_->Threads()));
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
  ParallelFor(rows, StepThreads(rows, ctx_->Threads()), [&](std::size_t r) {
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
  if (columns_->IsDense(feature)) {  // row j is entry j: no gather
    ParallelForBlocks(static_cast<std::int64_t>(n), StepThreads(n, ctx_->Threads()),
                      [&](int, std::int64_t begin, std::int64_t end) {
                        for (std::int64_t j = begin; j < end; ++j) {
                          // Branch-free (a dropped row adds 0), so the loop vectorises.
                          GradientPair& p = g[static_cast<std::size_t>(j) * groups_ + group];
                          const float step = p.hess * value[j] * dw;
                          p.grad += p.hess < 0.0f ? 0.0f : step;
                        }
                      });
    return;
  }
  ParallelFor(n, StepThreads(n, ctx_->Threads()), [&](std::size_t j) {
    GradientPair& p = g[std::size_t{row[j]} * groups_ + group];
    if (p.hess < 0.0f) return;
    p.grad += p.hess * value[j] * dw;
  });
}

GradSums GradientStats::ApplyThenSum(std::size_t prev, float dw, std::size_t feature, int group,
                                     std::vector<GradientPair>* gpair) const {
  if (dw == 0.0f || !columns_->IsDense(prev) || !columns_->IsDense(feature)) {
    ApplyFeature(prev, group, dw, gpair);
    return Feature(feature, group, *gpair);
  }
  const float* x_prev = columns_->value.data() + columns_->Begin(prev);
  const float* x = columns_->value.data() + columns_->Begin(feature);
  GradientPair* g = gpair->data() + group;
  const std::size_t stride = static_cast<std::size_t>(groups_);
  const std::size_t rows = columns_->num_rows;
  GradSums s = BlockSums(rows, StepThreads(rows, ctx_->Threads()),
                         [&](std::size_t begin, std::size_t end, GradSums* out) {
                           for (std::size_t j = begin; j < end; ++j) {
                             GradientPair& p = g[j * stride];
                             const float step = p.hess * x_prev[j] * dw;
                             p.grad += p.hess < 0.0f ? 0.0f : step;
                           }
                           DenseSums(g, stride, x, begin, end, out);
                         });
  Reduce(&s, 1);
  return s;
}

double GradientStats::WeightSum(const std::vector<float>& weights, std::size_t rows) const {
  double sum = 0.0;
  for (std::size_t i = 0; i < rows; ++i) sum += weights.empty() ? 1.0f : weights[i];
  if (comm_->IsDistributed()) comm_->Allreduce<rabit::op::Sum>(&sum, 1);
  return sum;
}

}  // namespace treering::booster::linear
