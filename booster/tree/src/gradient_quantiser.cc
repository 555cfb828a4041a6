#include "booster/gradient_quantiser.h"

#include <algorithm>
#include <cmath>

#include "data/parallel_for.h"
#include "rabit/rabit.h"
#include "booster/work_split.h"

namespace treering::booster {
namespace {

// Largest power of two s with max_abs * s * rows < 2^62.
double ScaleFor(double max_abs, double rows) {
  if (!(max_abs > 0)) return 1.0;
  int max_exp = 0, rows_exp = 0;
  std::frexp(max_abs, &max_exp);  // max_abs < 2^max_exp
  std::frexp(rows, &rows_exp);    // rows < 2^rows_exp
  return std::ldexp(1.0, 62 - rows_exp - max_exp);
}

}  // namespace

GradientQuantiser GradientQuantiser::ForGradients(const std::vector<GradientPair>& gpair,
                                                  int nthread) {
  // Per-thread maxima (a max does not depend on the order, so neither does the scale).
  const int threads = ResolveThreads(ThreadsFor(gpair.size(), nthread));
  std::vector<double> maxima(2 * std::size_t(threads), 0.0);
  ParallelForBlocks(static_cast<std::int64_t>(gpair.size()), threads,
                    [&](int tid, std::int64_t begin, std::int64_t end) {
                      float g = 0.0f, h = 0.0f;
                      for (std::int64_t i = begin; i < end; ++i) {
                        g = std::max(g, std::fabs(gpair[i].grad));
                        h = std::max(h, std::fabs(gpair[i].hess));
                      }
                      maxima[2 * tid] = g;
                      maxima[2 * tid + 1] = h;
                    });
  double stats[3] = {0, 0, 0};  // max |grad|, max |hess|, rows (as a max of one value each)
  for (int t = 0; t < threads; ++t) {
    stats[0] = std::max(stats[0], maxima[2 * t]);
    stats[1] = std::max(stats[1], maxima[2 * t + 1]);
  }
  rabit::Allreduce<rabit::op::Max>(stats, 2);
  double rows = static_cast<double>(gpair.size());
  rabit::Allreduce<rabit::op::Sum>(&rows, 1);
  stats[2] = rows + 1;
  return GradientQuantiser(ScaleFor(stats[0], stats[2]), ScaleFor(stats[1], stats[2]));
}

GradientPairInt GlobalSum(GradientPairInt local) {
  std::int64_t sums[2] = {local.grad, local.hess};
  rabit::Allreduce<rabit::op::Sum>(sums, 2);
  return {sums[0], sums[1]};
}

}  // namespace treering::booster
