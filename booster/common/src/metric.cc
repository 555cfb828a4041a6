#include "booster/metric.h"

#include <algorithm>

#include "base/parallel_for.h"
#include "booster/work_split.h"
#include "metric_impl.h"
#include "rabit/comm.h"

namespace treering::booster {

Result<std::unique_ptr<Metric>> Metric::Create(const std::string& name) {
  if (name == "auc") return MakeAucMetric();
  if (auto m = MakeElementwiseMetric(name)) return m;
  if (auto m = MakeMulticlassMetric(name)) return m;
  return Status::InvalidInput("parameter eval_metric: unknown metric '" + name +
                              "', allowed: rmse, mae, logloss, error, error@t, auc, merror, "
                              "mlogloss, poisson-nloglik");
}

WeightedSum SumRows(std::size_t rows, int nthread,
                    const std::function<WeightedSum(std::size_t row)>& row_loss) {
  // The chunk size fixes the summation order whatever the thread count.
  constexpr std::size_t kChunk = 4096;
  const std::size_t chunks = (rows + kChunk - 1) / kChunk;
  std::vector<WeightedSum> partial(chunks);
  ParallelFor(chunks, ThreadsFor(rows, nthread), [&](std::size_t c) {
    WeightedSum s;
    const std::size_t end = std::min(rows, (c + 1) * kChunk);
    for (std::size_t row = c * kChunk; row < end; ++row) {
      const WeightedSum r = row_loss(row);
      s.loss += r.loss;
      s.weight += r.weight;
    }
    partial[c] = s;
  });
  WeightedSum total;
  for (const auto& s : partial) {
    total.loss += s.loss;
    total.weight += s.weight;
  }
  return total;
}

double GlobalMean(WeightedSum local, rabit::Comm& comm) {
  double sums[2] = {local.loss, local.weight};
  comm.Allreduce<rabit::op::Sum>(sums, 2);
  return sums[0] / sums[1];
}

}  // namespace treering::booster
