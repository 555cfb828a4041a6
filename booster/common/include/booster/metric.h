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

class Metric {
 public:
  // name: rmse, mae, logloss, error, error@<t>, auc, merror, mlogloss, poisson-nloglik.
  static Result<std::unique_ptr<Metric>> Create(const std::string& name);
  virtual ~Metric() = default;
  virtual const std::string& Name() const = 0;
  // preds: the objective's EvalTransform output, `groups` values per row (row-major).
  virtual Result<double> Evaluate(const std::vector<float>& preds, int groups,
                                  const LabelView& labels, int nthread,
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

}  // namespace treering::booster
