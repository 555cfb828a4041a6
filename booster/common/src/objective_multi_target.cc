// Multi-target regression as XGBoost 1.7 does it (one_output_per_tree): labels are rows x
// targets, the elementwise objective computes one gradient per label element with the
// element's row weight, and the learner grows one tree per target per round.
#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "objective_impl.h"

namespace treering::booster {
namespace {

// The objectives XGBoost 1.7.4 trains on several label columns (those whose Targets() counts
// the label columns: RegLossObj's and PseudoHuberRegression); the rest fail there with
// "multioutput is not supported by current objective function".
constexpr std::array<const char*, 7> kMultiTarget = {
    "reg:squarederror", "reg:linear",      "reg:squaredlogerror", "reg:logistic",
    "binary:logistic",  "binary:logitraw", "reg:pseudohubererror"};

class MultiTargetObjective : public Objective {
 public:
  MultiTargetObjective(std::unique_ptr<Objective> one, int targets)
      : one_(std::move(one)), targets_(targets) {}

  const std::string& Name() const override { return one_->Name(); }
  int NumGroups() const override { return targets_; }

  Status CheckLabels(const LabelView& labels) const override {
    std::vector<float> weights;
    return one_->CheckLabels(ElementLabels(labels, &weights));
  }
  void GetGradient(const std::vector<float>& margin, const LabelView& labels, const Context& ctx,
                   std::vector<GradientPair>* out) const override {
    std::vector<float> weights;
    one_->GetGradient(margin, ElementLabels(labels, &weights), ctx, out);
  }
  GradientMaxima GetGradientAndMaxima(const std::vector<float>& margin, const LabelView& labels,
                                      const Context& ctx,
                                      std::vector<GradientPair>* out) const override {
    std::vector<float> weights;
    return one_->GetGradientAndMaxima(margin, ElementLabels(labels, &weights), ctx, out);
  }
  void PredTransform(std::vector<float>* values, const Context& ctx) const override {
    one_->PredTransform(values, ctx);
  }
  void EvalTransform(std::vector<float>* values, const Context& ctx) const override {
    one_->EvalTransform(values, ctx);
  }
  Result<float> ProbToMargin(float base_score) const override {
    return one_->ProbToMargin(base_score);
  }
  std::string DefaultMetric() const override { return one_->DefaultMetric(); }

 private:
  std::unique_ptr<Objective> one_;
  int targets_;
};

}  // namespace

LabelView ElementLabels(const LabelView& rows, std::vector<float>* weights) {
  LabelView out = rows;
  out.label_columns = 1;
  weights->clear();
  const std::size_t columns = std::max<std::size_t>(rows.label_columns, 1);
  if (columns > 1 && rows.weight != nullptr && !rows.weight->empty()) {
    weights->reserve(rows.weight->size() * columns);
    for (float w : *rows.weight) weights->insert(weights->end(), columns, w);
    out.weight = weights;
  }
  if (out.weight == nullptr) out.weight = weights;
  return out;
}

Status CheckTargets(const Objective& one, int targets) {
  if (targets <= 1) return Status::Ok();
  const std::string& name = one.Name();
  if (one.NumGroups() == 1 &&
      std::find(kMultiTarget.begin(), kMultiTarget.end(), name) != kMultiTarget.end()) {
    return Status::Ok();
  }
  std::string allowed;
  for (const char* n : kMultiTarget) allowed += (allowed.empty() ? "" : ", ") + std::string(n);
  return Status::InvalidKey("objective",
                            "parameter objective: " + name + " takes one label column, got " +
                                std::to_string(targets) + " (multi-target regression: " + allowed +
                                ", as XGBoost 1.7)");
}

Result<std::unique_ptr<Objective>> WithTargets(std::unique_ptr<Objective> one, int targets) {
  if (targets <= 1) return one;
  if (Status s = CheckTargets(*one, targets); !s.ok()) return s;
  return std::unique_ptr<Objective>(
      std::make_unique<MultiTargetObjective>(std::move(one), targets));
}

}  // namespace treering::booster
