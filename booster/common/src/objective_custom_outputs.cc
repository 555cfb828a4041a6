// An objective asked for num_class outputs per row although it has one per row itself
// (reg:squarederror, the default, with num_class = K): what XGBoost 1.7 trains when a Python
// script brings its own multi-class gradients (its custom_softmax.py demo sets num_class and
// no objective). The model then has K trees per round and K margins per row; the named
// objective still gives the base score, the prediction transform and the default metric. Its
// own gradients are one per row, so a round that asks for them is refused (XGBoost fails there
// too, on the label count); BoostOneIter's gradients are the only ones this model can take.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "objective_impl.h"

namespace treering::booster {
namespace {

class CustomOutputsObjective final : public Objective {
 public:
  CustomOutputsObjective(std::unique_ptr<Objective> inner, int outputs)
      : inner_(std::move(inner)), outputs_(outputs) {}

  const std::string& Name() const override { return inner_->Name(); }
  int NumGroups() const override { return outputs_; }
  Status CheckLabels(const LabelView& labels) const override { return inner_->CheckLabels(labels); }
  Status CanComputeGradients() const override {
    return Status::InvalidInput(
        "objective " + Name() +
        " has one output per row, but num_class = " + std::to_string(outputs_) +
        " asks for that many: use a multi: objective, or give the gradients yourself "
        "(a custom objective: XGBoosterBoostOneIter / Booster.boost)");
  }
  void GetGradient(const std::vector<float>& margin, const LabelView& /*labels*/,
                   const Context& /*ctx*/, std::vector<GradientPair>* out) const override {
    // Unreachable: UpdateOneIter checks CanComputeGradients first. Zero pairs grow no tree.
    out->assign(margin.size(), GradientPair{});
  }
  void PredTransform(std::vector<float>* values, const Context& ctx) const override {
    inner_->PredTransform(values, ctx);  // elementwise: any number of values per row
  }
  void EvalTransform(std::vector<float>* values, const Context& ctx) const override {
    inner_->EvalTransform(values, ctx);
  }
  Result<float> ProbToMargin(float base_score) const override {
    return inner_->ProbToMargin(base_score);
  }
  std::string DefaultMetric() const override { return inner_->DefaultMetric(); }
  // Leaves stay as grown: a quantile refresh needs the objective's own residuals per output.
  std::optional<double> LeafQuantile() const override { return std::nullopt; }

 private:
  std::unique_ptr<Objective> inner_;
  int outputs_;
};

}  // namespace

std::unique_ptr<Objective> MakeCustomOutputsObjective(std::unique_ptr<Objective> inner,
                                                      int outputs) {
  return std::make_unique<CustomOutputsObjective>(std::move(inner), outputs);
}

}  // namespace treering::booster
