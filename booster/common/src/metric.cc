#include "booster/metric.h"

#include <algorithm>

#include "base/parallel_for.h"
#include "booster/work_split.h"
#include "metric_impl.h"
#include "rabit/comm.h"

namespace treering::booster {

const std::vector<std::string>& MetricNames() {
  static const std::vector<std::string> kNames = {"rmse",
                                                  "rmsle",
                                                  "mae",
                                                  "mape",
                                                  "mphe",
                                                  "logloss",
                                                  "error",
                                                  "error@t",
                                                  "auc",
                                                  "aucpr",
                                                  "merror",
                                                  "mlogloss",
                                                  "poisson-nloglik",
                                                  "gamma-nloglik",
                                                  "gamma-deviance",
                                                  "tweedie-nloglik@p",
                                                  "cox-nloglik",
                                                  "aft-nloglik",
                                                  "interval-regression-accuracy",
                                                  "ndcg",
                                                  "ndcg@k",
                                                  "ndcg-",
                                                  "ndcg@k-",
                                                  "map",
                                                  "map@k",
                                                  "map-",
                                                  "map@k-",
                                                  "pre@k",
                                                  "quantile"};
  return kNames;
}

Result<std::unique_ptr<Metric>> Metric::Create(const std::string& name,
                                               const MetricConfig& config) {
  if (name == "auc" || name == "aucpr") return MakeAucMetric(name);
  if (name == "cox-nloglik") return MakeCoxMetric();
  if (auto m = MakeSurvivalMetric(name, config)) return m;
  if (name == "quantile") return MakeQuantileMetric(config.quantile_alpha);
  if (IsRankMetricName(name)) return MakeRankMetric(name);
  if (name.rfind("tweedie-nloglik", 0) == 0) return MakeTweedieMetric(name);
  if (auto m = MakeElementwiseMetric(name, config)) return m;
  if (auto m = MakeMulticlassMetric(name)) return m;
  std::string allowed;
  for (const std::string& n : MetricNames()) allowed += (allowed.empty() ? "" : ", ") + n;
  return Status::InvalidInput("parameter eval_metric: unknown metric '" + name +
                              "', allowed: " + allowed);
}

bool Metric::Maximised(const std::string& name) {
  // XGBoost's maximised prefixes: auc, aucpr, map, ndcg, pre (mape is not map).
  return name == "auc" || name == "aucpr" || IsRankMetricName(name);
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
