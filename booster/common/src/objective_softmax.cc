// multi:softmax / multi:softprob (XGBoost 1.7 multiclass_obj.cu): softmax over the num_class
// margins of a row, g_k = (p_k - [y == k]) w, h_k = max(2 p_k (1 - p_k) w, 1e-16).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "base/parallel_for.h"
#include "booster/work_split.h"
#include "objective_impl.h"

namespace treering::booster {
namespace {

// Probabilities as XGBoost 1.7's prediction and metrics compute them (common::Softmax): the
// sum in double, each exp divided by it rounded to float.
void SoftmaxForOutput(float* v, int k) {
  float wmax = v[0];
  for (int j = 1; j < k; ++j) wmax = std::fmax(v[j], wmax);
  double wsum = 0.0;
  for (int j = 0; j < k; ++j) {
    v[j] = std::exp(v[j] - wmax);
    wsum += v[j];
  }
  for (int j = 0; j < k; ++j) v[j] /= static_cast<float>(wsum);
}

class SoftmaxObjective : public Objective {
 public:
  SoftmaxObjective(std::string name, int num_class) : name_(std::move(name)), k_(num_class) {}

  const std::string& Name() const override { return name_; }
  int NumGroups() const override { return k_; }

  Status CheckLabels(const LabelView& labels) const override {
    for (std::size_t i = 0; i < labels.NumRows(); ++i) {
      const float y = (*labels.label)[i];
      if (!(y >= 0.0f && y < static_cast<float>(k_)) || y != std::floor(y)) {
        return Status::InvalidInput(
            name_ + ": label must be an integer in [0, num_class=" + std::to_string(k_) +
            "), row " + std::to_string(i) + " has " + std::to_string(y));
      }
    }
    return Status::Ok();
  }

  void GetGradient(const std::vector<float>& margin, const LabelView& labels, const Context& ctx,
                   std::vector<GradientPair>* out) const override {
    out->resize(margin.size());
    ParallelFor(labels.NumRows(), ctx.ThreadsFor(margin.size(), kBoosterGrain),
                [&](std::size_t row) {
                  // XGBoost 1.7's SoftmaxMultiClassObj::GetGradient, operation for operation: its
                  // running max starts at FLT_MIN (not the first margin), the sum of exps is a
                  // double, and each p is recomputed from its exp divided by the sum rounded to
                  // float.
                  const float* point = margin.data() + row * k_;
                  float wmax = std::numeric_limits<float>::min();
                  for (int j = 0; j < k_; ++j) wmax = std::fmax(point[j], wmax);
                  double wsum = 0.0;
                  for (int j = 0; j < k_; ++j) wsum += std::exp(point[j] - wmax);
                  const int label = static_cast<int>((*labels.label)[row]);
                  const float w = labels.Weight(row);
                  for (int j = 0; j < k_; ++j) {
                    float p = std::exp(point[j] - wmax) / static_cast<float>(wsum);
                    const float h = std::fmax(2.0f * p * (1.0f - p) * w, 1e-16f);
                    p = label == j ? p - 1.0f : p;
                    (*out)[row * k_ + j] = {p * w, h};
                  }
                });
  }

  // multi:softmax predicts the class index; multi:softprob the probabilities.
  void PredTransform(std::vector<float>* values, const Context& ctx) const override {
    if (name_ == "multi:softprob") {
      EvalTransform(values, ctx);
      return;
    }
    const std::size_t rows = values->size() / k_;
    std::vector<float> classes(rows);
    ParallelFor(rows, ctx.ThreadsFor(values->size(), kBoosterGrain), [&](std::size_t row) {
      const float* v = values->data() + row * k_;
      classes[row] = static_cast<float>(std::max_element(v, v + k_) - v);
    });
    values->swap(classes);
  }

  void EvalTransform(std::vector<float>* values, const Context& ctx) const override {
    ParallelFor(values->size() / k_, ctx.ThreadsFor(values->size(), kBoosterGrain),
                [&](std::size_t row) { SoftmaxForOutput(values->data() + row * k_, k_); });
  }

  std::string DefaultMetric() const override {
    return name_ == "multi:softmax" ? "merror" : "mlogloss";
  }

 private:
  std::string name_;
  int k_;
};

}  // namespace

std::unique_ptr<Objective> MakeSoftmaxObjective(const std::string& name, int num_class) {
  return std::make_unique<SoftmaxObjective>(name, num_class);
}

}  // namespace treering::booster
