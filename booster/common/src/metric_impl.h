// Factories of the concrete metrics (private to booster/common).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "booster/metric.h"

namespace treering::booster {

// rmse, rmsle, mae, mape, mphe, logloss, error[@t], poisson-nloglik, gamma-nloglik,
// gamma-deviance; nullptr if the name is none of them.
std::unique_ptr<Metric> MakeElementwiseMetric(const std::string& name, const MetricConfig& config);
// tweedie-nloglik@p (p in [1, 2)), or why the name is not one.
Result<std::unique_ptr<Metric>> MakeTweedieMetric(const std::string& name);
std::unique_ptr<Metric> MakeCoxMetric();
// aft-nloglik (with config's AFT distribution and scale) or interval-regression-accuracy;
// nullptr otherwise (metric_survival.cc).
std::unique_ptr<Metric> MakeSurvivalMetric(const std::string& name, const MetricConfig& config);
// quantile: the pinball loss averaged over rows x alphas (XGBoost 2.x QuantileError).
std::unique_ptr<Metric> MakeQuantileMetric(const std::vector<float>& alpha);
// merror, mlogloss; nullptr otherwise.
std::unique_ptr<Metric> MakeMulticlassMetric(const std::string& name);
// auc or aucpr: binary, or one-vs-rest over classes as XGBoost 1.7 (auc weights each class
// by its positive weight, aucpr averages classes plainly).
std::unique_ptr<Metric> MakeAucMetric(const std::string& name);
// ndcg, map, pre with @k and '-' (XGBoost 1.7 EvalRank), or why the name is not one.
Result<std::unique_ptr<Metric>> MakeRankMetric(const std::string& name);
// Whether `name` is ndcg, map or pre, followed by nothing, @... or -... (not mape).
bool IsRankMetricName(const std::string& name);
// Row ids by descending prediction, ties in ascending row order.
std::vector<std::uint32_t> DescendingOrder(const std::vector<float>& preds);

// Allreduces {loss, weight} over ranks and returns loss / weight.
double GlobalMean(WeightedSum local, rabit::Comm& comm);

}  // namespace treering::booster
