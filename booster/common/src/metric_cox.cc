// cox-nloglik (XGBoost 1.7 rank_metric.cc EvalCox): negative partial log-likelihood of the Cox
// model per event, on exp(margin) predictions. It needs every row's risk set, so distributed
// the rows are gathered first (XGBoost refuses to evaluate it distributed).
#include <cmath>
#include <cstddef>
#include <vector>

#include "metric_impl.h"
#include "objective_impl.h"
#include "rabit/comm.h"

namespace treering::booster {
namespace {

double CoxNegLogLik(const std::vector<float>& preds, const std::vector<float>& labels) {
  const std::vector<std::size_t> order = AbsLabelOrder(labels);
  double exp_p_sum = 0;
  for (float p : preds) exp_p_sum += p;
  double out = 0, accumulated = 0;
  std::size_t events = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::size_t row = order[i];
    if (labels[row] > 0) {
      out -= std::log(preds[row]) - std::log(exp_p_sum);
      ++events;
    }
    accumulated += preds[row];  // the tie group leaves the risk set after its last row
    if (i + 1 == order.size() || std::fabs(labels[row]) < std::fabs(labels[order[i + 1]])) {
      exp_p_sum -= accumulated;
      accumulated = 0;
    }
  }
  return out / events;
}

class CoxMetric : public Metric {
 public:
  const std::string& Name() const override { return name_; }

  Result<double> Evaluate(const std::vector<float>& preds, int groups, const LabelView& labels,
                          const Context& /*ctx*/, rabit::Comm& comm) const override {
    if (groups != 1) {
      return Status::InvalidInput("eval_metric cox-nloglik needs a one-output objective");
    }
    if (!comm.IsDistributed()) return CoxNegLogLik(preds, *labels.label);
    return CoxNegLogLik(comm.AllgatherV(preds), comm.AllgatherV(*labels.label));
  }

 private:
  std::string name_ = "cox-nloglik";
};

}  // namespace

std::unique_ptr<Metric> MakeCoxMetric() { return std::make_unique<CoxMetric>(); }

}  // namespace treering::booster
