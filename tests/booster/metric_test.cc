// Metrics against hand-computed values and AUC against a brute-force pair count.
#include "booster/metric.h"

#include <cmath>
#include <random>

#include <gtest/gtest.h>

namespace treering::booster {
namespace {

double Eval(const std::string& name, const std::vector<float>& preds, int groups,
            const std::vector<float>& label, const std::vector<float>& weight = {}) {
  auto metric = Metric::Create(name);
  EXPECT_TRUE(metric.ok()) << name;
  auto v = (*metric)->Evaluate(preds, groups, {&label, &weight}, Context{.nthread = 2},
                               rabit::DefaultComm());
  EXPECT_TRUE(v.ok()) << v.status().message();
  return v.value();
}

// Probability that a random positive outranks a random negative (ties count one half),
// every pair weighted by the product of the two rows' weights.
double BruteForceAuc(const std::vector<float>& p, const std::vector<float>& y,
                     const std::vector<float>& w) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    for (std::size_t j = 0; j < p.size(); ++j) {
      if (y[i] != 1 || y[j] != 0) continue;
      const double pair = double(w[i]) * w[j];
      den += pair;
      num += pair * (p[i] > p[j] ? 1.0 : (p[i] == p[j] ? 0.5 : 0.0));
    }
  }
  return num / den;
}

TEST(Metric, AucWithTiesAndWeightsEqualsBruteForce) {
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> level(0, 9);  // few distinct scores -> many ties
  std::uniform_real_distribution<float> weight(0.1f, 3.0f);
  std::vector<float> p, y, w;
  for (int i = 0; i < 400; ++i) {
    p.push_back(level(rng) / 10.0f);
    y.push_back((level(rng) + p.back() * 10) > 9 ? 1.0f : 0.0f);
    w.push_back(weight(rng));
  }
  EXPECT_NEAR(Eval("auc", p, 1, y, w), BruteForceAuc(p, y, w), 1e-12);
  const std::vector<float> ones(p.size(), 1.0f);
  EXPECT_NEAR(Eval("auc", p, 1, y), BruteForceAuc(p, y, ones), 1e-12);
  // Margins: negatives, both zeros, repeated and distinct values (the radix order keys).
  std::normal_distribution<float> margin(0.0f, 3.0f);
  for (std::size_t i = 0; i < p.size(); ++i) {
    p[i] = i % 5 == 0 ? std::round(margin(rng)) : margin(rng) + y[i];
  }
  p[0] = -0.0f;
  p[1] = 0.0f;
  EXPECT_NEAR(Eval("auc", p, 1, y, w), BruteForceAuc(p, y, w), 1e-12);
}

TEST(Metric, AucOfOneClassIsNaN) {
  EXPECT_TRUE(std::isnan(Eval("auc", {0.1f, 0.7f}, 1, {1.0f, 1.0f})));
}

TEST(Metric, ElementwiseByHand) {
  const std::vector<float> p = {0.2f, 0.9f, 0.6f}, y = {0.0f, 1.0f, 0.0f}, w = {1, 2, 1};
  const double sw = 4.0;
  EXPECT_NEAR(Eval("rmse", p, 1, y, w), std::sqrt((0.04 + 2 * 0.01 + 0.36) / sw), 1e-6);
  EXPECT_NEAR(Eval("mae", p, 1, y, w), (0.2 + 2 * 0.1 + 0.6) / sw, 1e-6);
  EXPECT_NEAR(Eval("logloss", p, 1, y, w),
              (-std::log(0.8) - 2 * std::log(0.9) - std::log(0.4)) / sw, 1e-6);
  EXPECT_NEAR(Eval("error", p, 1, y, w), 1.0 / sw, 1e-12);  // row 3 is wrong
  EXPECT_NEAR(Eval("error@0.7", p, 1, y, w), 0.0, 1e-12);   // threshold moves past 0.6
  const std::vector<float> rate = {2.0f}, count = {3.0f};
  EXPECT_NEAR(Eval("poisson-nloglik", rate, 1, count), std::lgamma(4.0) + 2.0 - std::log(2.0) * 3.0,
              1e-5);
}

TEST(Metric, MulticlassByHand) {
  const std::vector<float> p = {0.7f, 0.2f, 0.1f, 0.3f, 0.3f, 0.4f};
  const std::vector<float> y = {0.0f, 1.0f};
  EXPECT_NEAR(Eval("merror", p, 3, y), 0.5, 1e-12);
  EXPECT_NEAR(Eval("mlogloss", p, 3, y), (-std::log(0.7) - std::log(0.3)) / 2, 1e-6);
}

TEST(Metric, UnknownNameIsInvalidInput) {
  auto m = Metric::Create("accuracy");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), StatusCode::kInvalidInput);
}

TEST(Metric, SumIsIndependentOfThreadCount) {
  std::vector<float> values(100000);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(0, 1);
  for (auto& v : values) v = u(rng);
  auto row = [&](std::size_t r) { return WeightedSum{values[r] * 1e-3, 1.0}; };
  const WeightedSum one = SumRows(values.size(), 1, row), two = SumRows(values.size(), 2, row);
  EXPECT_EQ(one.loss, two.loss);
}

}  // namespace
}  // namespace treering::booster
