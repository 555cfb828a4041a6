// Factories of the concrete metrics (private to booster/common).
#pragma once

#include <memory>
#include <string>

#include "booster/metric.h"

namespace treering::booster {

// rmse, mae, logloss, error[@t], poisson-nloglik; nullptr if the name is none of them.
std::unique_ptr<Metric> MakeElementwiseMetric(const std::string& name);
// merror, mlogloss; nullptr otherwise.
std::unique_ptr<Metric> MakeMulticlassMetric(const std::string& name);
std::unique_ptr<Metric> MakeAucMetric();

// Allreduces {loss, weight} over ranks and returns loss / weight.
double GlobalMean(WeightedSum local, rabit::Comm& comm);

}  // namespace treering::booster
