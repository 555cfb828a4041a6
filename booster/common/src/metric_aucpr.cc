// Binary PR AUC as XGBoost 1.7 computes it (metric/auc.cc BinaryPRAUC, auc.h
// CalcDeltaPRAUC): between consecutive tie groups, precision is interpolated along the line
// of (tp, fp) rather than stepped, and the integral of that curve over recall is summed.
#include <cmath>
#include <cstdint>
#include <limits>

#include "metric_impl.h"

namespace treering::booster {
namespace {

// Area under the interpolated PR curve from (fp_prev, tp_prev) to (fp, tp).
double DeltaPrArea(double fp_prev, double fp, double tp_prev, double tp, double total_pos) {
  const double recall_prev = tp_prev / total_pos;
  const double recall = tp / total_pos;
  double a = 1.0, b = 0.0;
  if (tp != tp_prev) {
    const double h = (fp - fp_prev) / (tp - tp_prev);
    a = h + 1;
    b = (fp_prev - h * tp_prev) / total_pos;
  }
  if (b != 0.0) {
    return (recall - recall_prev -
            b / a * (std::log(a * recall + b) - std::log(a * recall_prev + b))) /
           a;
  }
  return (recall - recall_prev) / a;
}

}  // namespace

double ExactPrAuc(const std::vector<float>& preds, const std::vector<float>& labels,
                  const std::vector<float>& weights) {
  double total_pos = 0, total_neg = 0;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const float w = weights.empty() ? 1.0f : weights[i];
    total_pos += w * labels[i];
    total_neg += w * (1.0f - labels[i]);
  }
  if (total_pos <= 0 || total_neg <= 0) return std::numeric_limits<double>::quiet_NaN();
  const std::vector<std::uint32_t> order = DescendingOrder(preds);
  double tp = 0, fp = 0, area = 0;
  for (std::size_t i = 0; i < order.size();) {
    const double tp_prev = tp, fp_prev = fp;
    const float value = preds[order[i]];
    for (; i < order.size() && preds[order[i]] == value; ++i) {
      const std::size_t row = order[i];
      const float w = weights.empty() ? 1.0f : weights[row];
      fp += (1.0f - labels[row]) * w;
      tp += labels[row] * w;
    }
    area += DeltaPrArea(fp_prev, fp, tp_prev, tp, total_pos);
  }
  return area;
}

}  // namespace treering::booster
