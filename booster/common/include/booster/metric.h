// Metric: evaluation metrics with XGBoost 1.7 names and formulas. Values are global: every
// rank of `comm` contributes partial sums through one allreduce (AUC gathers the rows), so all
// ranks print the same number.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "booster/objective.h"
#include "rabit/comm.h"

namespace treering::booster {

// Parameters a metric takes from the learner's configuration (XGBoost passes them the same way).
struct MetricConfig {
  float huber_slope = 1.0f;  // mphe
  // aft-nloglik: the noise distribution and its scale (XGBoost's aft_loss_param).
  std::string aft_loss_distribution = "normal";
  float aft_loss_distribution_scale = 1.0f;
  // quantile (XGBoost 2.x): the objective's quantile_alpha, one per output group.
  std::vector<float> quantile_alpha{0.5f};
};

class Metric {
 public:
  // name: one of MetricNames(); tweedie-nloglik@<p> with p in [1, 2), error@<t>.
  static Result<std::unique_ptr<Metric>> Create(const std::string& name,
                                                const MetricConfig& config = {});
  // Whether a larger value is better (early stopping). XGBoost 1.7's Python callback
  // maximises metrics whose name starts with auc, aucpr, map, ndcg or pre (mape excepted).
  static bool Maximised(const std::string& name);
  virtual ~Metric() = default;
  virtual const std::string& Name() const = 0;
  // preds: the objective's EvalTransform output, `groups` values per row (row-major).
  virtual Result<double> Evaluate(const std::vector<float>& preds, int groups,
                                  const LabelView& labels, const Context& ctx,
                                  rabit::Comm& comm) const = 0;
};

// Deterministic weighted sum over rows: fixed chunks summed in parallel, chunks added in
// order, so the result does not depend on the thread count. Returns {sum w*loss, sum w}.
struct WeightedSum {
  double loss = 0.0;
  double weight = 0.0;
};
WeightedSum SumRows(std::size_t rows, int nthread,
                    const std::function<WeightedSum(std::size_t row)>& row_loss);

// Exact weighted ROC AUC with ties (equal predictions form one trapezoid). NaN when one class
// has zero total weight. Local: callers gather rows first when distributed.
double ExactAuc(const std::vector<float>& preds, const std::vector<float>& labels,
                const std::vector<float>& weights);

// XGBoost 1.7's binary PR AUC (metric/auc.cc BinaryPRAUC): the precision-recall curve between
// tie groups (rows in descending prediction) integrated with its interpolation
// (CalcDeltaPRAUC). NaN when one class has zero total weight. Local, as ExactAuc.
double ExactPrAuc(const std::vector<float>& preds, const std::vector<float>& labels,
                  const std::vector<float>& weights);

// Every metric name Metric::Create accepts (the parametrised ones as error@t,
// tweedie-nloglik@p), for messages and docs.
const std::vector<std::string>& MetricNames();

}  // namespace treering::booster
