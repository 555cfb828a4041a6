// ROC and PR AUC, exact: rows sorted by prediction (descending), rows with equal predictions
// form one step of the curve, weights count as row multiplicities. Multi-class: one class
// against the rest, averaged as XGBoost 1.7's MultiClassOVR. Distributed: the (pred, label,
// weight) rows are gathered from every rank first, so the value is the global exact AUC
// (XGBoost 1.7 averages per-rank areas instead).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>

#include "metric_impl.h"
#include "rabit/comm.h"
#include "rank_order.h"

namespace treering::booster {

// Row ids by descending prediction, ties in ascending row order (what a stable sort gives):
// an LSD radix sort of 64-bit items (order key << 32 | row) on the key's 32 bits, 11-bit
// digits. Evaluated every round on the whole eval set, where std::stable_sort with an
// indirect comparison cost as much as several tree levels.
std::vector<std::uint32_t> DescendingOrder(const std::vector<float>& preds) {
  const std::size_t n = preds.size();
  std::vector<std::uint64_t> items(n), tmp(n);
  for (std::size_t i = 0; i < n; ++i) {
    items[i] = DescendingSortKey(preds[i], static_cast<std::uint32_t>(i));
  }
  for (int shift = 32; shift < 64; shift += 11) {
    std::vector<std::size_t> count(2049, 0);
    for (std::uint64_t it : items) ++count[((it >> shift) & 0x7ffu) + 1];
    for (std::size_t d = 0; d < 2048; ++d) count[d + 1] += count[d];
    for (std::uint64_t it : items) tmp[count[(it >> shift) & 0x7ffu]++] = it;
    items.swap(tmp);
  }
  std::vector<std::uint32_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<std::uint32_t>(items[i]);
  return order;
}

double ExactAuc(const std::vector<float>& preds, const std::vector<float>& labels,
                const std::vector<float>& weights) {
  const std::vector<std::uint32_t> order = DescendingOrder(preds);
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

using Curve = double (*)(const std::vector<float>&, const std::vector<float>&,
                         const std::vector<float>&);

// XGBoost 1.7's MultiClassOVR: each class's binary area against the rest; ROC AUC weighs
// classes by their positive weight, PR AUC (whose BinaryPRAUC reports tp = 1) plainly. One
// class without positives or negatives makes the whole value NaN.
double OneVsRest(const std::vector<float>& preds, int groups, const std::vector<float>& labels,
                 const std::vector<float>& weights, Curve curve, bool by_prevalence) {
  const std::size_t rows = labels.size();
  std::vector<float> proba(rows), response(rows);
  double sum = 0.0, total = 0.0;
  for (int c = 0; c < groups; ++c) {
    double positive = 0.0;
    for (std::size_t i = 0; i < rows; ++i) {
      proba[i] = preds[i * groups + c];
      response[i] = labels[i] == static_cast<float>(c) ? 1.0f : 0.0f;
      positive += response[i] * (weights.empty() ? 1.0 : weights[i]);
    }
    const double area = curve(proba, response, weights);
    if (std::isnan(area)) return std::numeric_limits<double>::quiet_NaN();
    const double weight = by_prevalence ? positive : 1.0;
    sum += area * weight;
    total += weight;
  }
  return total == 0 ? std::numeric_limits<double>::quiet_NaN() : sum / total;
}

class AucMetric : public Metric {
 public:
  explicit AucMetric(std::string name) : name_(std::move(name)) {}
  const std::string& Name() const override { return name_; }

  Result<double> Evaluate(const std::vector<float>& preds, int groups, const LabelView& labels,
                          const Context& /*ctx*/, rabit::Comm& comm) const override {
    if (!comm.IsDistributed()) return Area(preds, groups, *labels.label, *labels.weight);
    std::vector<float> weights = *labels.weight;
    if (weights.empty()) weights.assign(labels.NumRows(), 1.0f);
    return Area(comm.AllgatherV(preds), groups, comm.AllgatherV(*labels.label),
                comm.AllgatherV(weights));
  }

 private:
  double Area(const std::vector<float>& preds, int groups, const std::vector<float>& labels,
              const std::vector<float>& weights) const {
    const bool roc = name_ == "auc";
    const Curve curve = roc ? &ExactAuc : &ExactPrAuc;
    if (groups == 1) return curve(preds, labels, weights);
    return OneVsRest(preds, groups, labels, weights, curve, roc);
  }

  std::string name_;
};

}  // namespace

std::unique_ptr<Metric> MakeAucMetric(const std::string& name) {
  return std::make_unique<AucMetric>(name);
}

}  // namespace treering::booster
