// Binary ROC AUC, exact: rows sorted by prediction (descending), rows with equal predictions
// form one trapezoid, weights count as row multiplicities. Distributed: the (pred, label,
// weight) triples are gathered from every rank first, so the value is the global exact AUC
// (XGBoost 1.7 averages per-rank AUCs instead).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>

#include "metric_impl.h"
#include "rabit/comm.h"

namespace treering::booster {

namespace {

// Row ids by descending prediction, ties in ascending row order (what a stable sort gives):
// an LSD radix sort of 64-bit items (order key << 32 | row) on the key's 32 bits, 11-bit
// digits. Evaluated every round on the whole eval set, where std::stable_sort with an
// indirect comparison cost as much as several tree levels.
std::vector<std::uint32_t> DescendingOrder(const std::vector<float>& preds) {
  const std::size_t n = preds.size();
  std::vector<std::uint64_t> items(n), tmp(n);
  for (std::size_t i = 0; i < n; ++i) {
    const float v = preds[i] == 0.0f ? 0.0f : preds[i];  // -0 and +0 are one tie group
    std::uint32_t bits;
    std::memcpy(&bits, &v, sizeof(bits));
    const std::uint32_t ascending = (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
    items[i] = (std::uint64_t{~ascending} << 32) | i;
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

}  // namespace

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

class AucMetric : public Metric {
 public:
  const std::string& Name() const override { return name_; }

  Result<double> Evaluate(const std::vector<float>& preds, int groups, const LabelView& labels,
                          int /*nthread*/, rabit::Comm& comm) const override {
    if (groups != 1) {
      return Status::InvalidInput("eval_metric auc: treering computes binary AUC only");
    }
    if (!comm.IsDistributed()) return ExactAuc(preds, *labels.label, *labels.weight);
    std::vector<float> weights = *labels.weight;
    if (weights.empty()) weights.assign(labels.NumRows(), 1.0f);
    return ExactAuc(comm.AllgatherV(preds), comm.AllgatherV(*labels.label),
                    comm.AllgatherV(weights));
  }

 private:
  std::string name_ = "auc";
};

}  // namespace

std::unique_ptr<Metric> MakeAucMetric() { return std::make_unique<AucMetric>(); }

}  // namespace treering::booster
