// Binary ROC AUC, exact: rows sorted by prediction (descending), rows with equal predictions
// form one trapezoid, weights count as row multiplicities. Distributed: the (pred, label,
// weight) triples are gathered from every rank first, so the value is the global exact AUC
// (XGBoost 1.7 averages per-rank AUCs instead).
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "metric_impl.h"
#include "rabit/rabit.h"

namespace treering::booster {

double ExactAuc(const std::vector<float>& preds, const std::vector<float>& labels,
                const std::vector<float>& weights) {
  std::vector<std::size_t> order(preds.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return preds[a] > preds[b]; });
  double tp = 0, fp = 0, area = 0;
  for (std::size_t i = 0; i < order.size();) {
    double group_tp = 0, group_fp = 0;
    const float value = preds[order[i]];
    for (; i < order.size() && preds[order[i]] == value; ++i) {
      const std::size_t row = order[i];
      const double w = weights.empty() ? 1.0 : weights[row];
      group_tp += labels[row] * w;
      group_fp += (1.0 - labels[row]) * w;
    }
    area += group_fp * (tp + tp + group_tp) / 2.0;  // trapezoid under the tie group
    tp += group_tp;
    fp += group_fp;
  }
  if (tp <= 0 || fp <= 0) return std::numeric_limits<double>::quiet_NaN();
  return area / (tp * fp);
}

namespace {

class AucMetric : public Metric {
 public:
  const std::string& Name() const override { return name_; }

  Result<double> Evaluate(const std::vector<float>& preds, int groups, const LabelView& labels,
                          int /*nthread*/) const override {
    if (groups != 1) {
      return Status::InvalidInput("eval_metric auc: treering computes binary AUC only");
    }
    if (!rabit::IsDistributed()) return ExactAuc(preds, *labels.label, *labels.weight);
    std::vector<float> weights = *labels.weight;
    if (weights.empty()) weights.assign(labels.NumRows(), 1.0f);
    return ExactAuc(rabit::AllgatherV(preds), rabit::AllgatherV(*labels.label),
                    rabit::AllgatherV(weights));
  }

 private:
  std::string name_ = "auc";
};

}  // namespace

std::unique_ptr<Metric> MakeAucMetric() { return std::make_unique<AucMetric>(); }

}  // namespace treering::booster
