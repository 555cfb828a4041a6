// The metrics of issue 17 (item 2) on N thread ranks against the same metric on the union of
// the ranks' rows in one process, against values computed here from XGBoost 1.7's formulas,
// and each metric's early-stopping direction against XGBoost's Python rule.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "booster/metric.h"
#include "thread_world.h"

namespace treering::booster {
namespace {

struct Rows {
  std::vector<float> preds, labels, weights;
};

// Rows whose labels suit every metric under test: positive (gamma, mape, rmsle) with a few
// ties in the predictions; `classes` > 0 gives class labels and `classes` outputs per row.
Rows MakeRows(std::size_t n, int classes, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> level(1, 20);
  std::uniform_real_distribution<float> weight(0.5f, 2.0f);
  Rows r;
  for (std::size_t i = 0; i < n; ++i) {
    if (classes > 0) {
      r.labels.push_back(static_cast<float>(i % classes));
      float sum = 0;
      for (int c = 0; c < classes; ++c) sum += static_cast<float>(level(rng));
      for (int c = 0; c < classes; ++c) r.preds.push_back(static_cast<float>(level(rng)) / sum);
    } else {
      r.labels.push_back(static_cast<float>(level(rng)) / 4.0f);
      r.preds.push_back(static_cast<float>(level(rng)) / 4.0f);
    }
    r.weights.push_back(weight(rng));
  }
  return r;
}

double EvalLocal(const std::string& name, const Rows& r, int groups) {
  auto metric = Metric::Create(name, {2.0f});
  EXPECT_TRUE(metric.ok()) << name;
  auto v = (*metric)->Evaluate(r.preds, groups, {&r.labels, &r.weights}, Context{.nthread = 1},
                               rabit::DefaultComm());
  EXPECT_TRUE(v.ok()) << v.status().message();
  return v.value();
}

// Splits `all` into `world` contiguous shards and evaluates on thread ranks; every rank must
// print the same value.
std::vector<double> EvalOnRanks(const std::string& name, const Rows& all, int groups, int world) {
  std::vector<double> out(world);
  testing::ThreadWorld(world).Run([&](int rank, rabit::Comm* comm) {
    const std::size_t rows = all.labels.size();
    const std::size_t begin = rows * rank / world, end = rows * (rank + 1) / world;
    Rows mine;
    mine.labels.assign(all.labels.begin() + begin, all.labels.begin() + end);
    mine.weights.assign(all.weights.begin() + begin, all.weights.begin() + end);
    mine.preds.assign(all.preds.begin() + begin * groups, all.preds.begin() + end * groups);
    auto metric = Metric::Create(name, {2.0f});
    auto v = (*metric)->Evaluate(mine.preds, groups, {&mine.labels, &mine.weights},
                                 Context{.nthread = 1}, *comm);
    out[rank] = v.ok() ? v.value() : std::nan("");
  });
  return out;
}

TEST(MetricRanks, DistributedEqualsOneProcess) {
  const Rows regression = MakeRows(301, 0, 5);
  for (const std::string name : {"rmsle", "mape", "mphe", "gamma-nloglik", "gamma-deviance",
                                 "tweedie-nloglik@1.4", "cox-nloglik"}) {
    const double want = EvalLocal(name, regression, 1);
    for (double got : EvalOnRanks(name, regression, 1, 3)) {
      EXPECT_NEAR(got, want, 1e-12 * std::max(1.0, std::fabs(want))) << name;
    }
  }
  Rows binary = MakeRows(301, 0, 6);
  for (float& y : binary.labels) y = y > 2.5f ? 1.0f : 0.0f;
  for (float& p : binary.preds) p /= 5.0f;
  const Rows multi = MakeRows(300, 3, 7);
  for (const std::string name : {"auc", "aucpr"}) {
    const double want_binary = EvalLocal(name, binary, 1);
    for (double got : EvalOnRanks(name, binary, 1, 3)) EXPECT_DOUBLE_EQ(got, want_binary) << name;
    const double want_multi = EvalLocal(name, multi, 3);
    for (double got : EvalOnRanks(name, multi, 3, 2)) EXPECT_DOUBLE_EQ(got, want_multi) << name;
  }
}

// XGBoost 1.7's row losses (elementwise_metric.cu), in double: the float code agrees to 1e-6.
TEST(MetricRanks, ElementwiseValuesFollowXgboostFormulas) {
  const Rows r = MakeRows(200, 0, 9);
  double sum_w = 0, rmsle = 0, mape = 0, mphe = 0, gnll = 0, gdev = 0, tweedie = 0;
  const double slope = 2.0, rho = 1.4;
  for (std::size_t i = 0; i < r.labels.size(); ++i) {
    const double y = r.labels[i], p = r.preds[i], w = r.weights[i];
    sum_w += w;
    rmsle += w * std::pow(std::log1p(y) - std::log1p(p), 2);
    mape += w * std::fabs((y - p) / y);
    mphe += w * slope * slope * (std::sqrt(1 + std::pow((y - p) / slope, 2)) - 1);
    gnll += w * (y / p + std::log(p));  // -((y * -1/p) - (-log(1/p))), dispersion 1
    const double pe = p + 1e-6, ye = y + 1e-6;
    gdev += w * (std::log(pe / ye) + ye / pe - 1);
    tweedie += w * (-y * std::pow(p, 1 - rho) / (1 - rho) + std::pow(p, 2 - rho) / (2 - rho));
  }
  const std::vector<std::pair<std::string, double>> want = {
      {"rmsle", std::sqrt(rmsle / sum_w)},
      {"mape", mape / sum_w},
      {"mphe", mphe / sum_w},
      {"gamma-nloglik", gnll / sum_w},
      {"gamma-deviance", 2 * gdev / sum_w},
      {"tweedie-nloglik@1.4", tweedie / sum_w}};
  for (const auto& [name, value] : want) {
    EXPECT_NEAR(EvalLocal(name, r, 1), value, 1e-6 * std::fabs(value)) << name;
  }
}

TEST(MetricRanks, TweedieNameAndRangeAsXgboost) {
  auto m = Metric::Create("tweedie-nloglik@1.50");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ((*m)->Name(), "tweedie-nloglik@1.5");  // XGBoost prints rho with 6 digits
  for (const std::string bad :
       {"tweedie-nloglik", "tweedie-nloglik@2", "tweedie-nloglik@0.5", "tweedie-nloglik@x"}) {
    auto b = Metric::Create(bad);
    ASSERT_FALSE(b.ok()) << bad;
    EXPECT_NE(b.status().message().find("[1, 2)"), std::string::npos) << b.status().message();
  }
}

// XGBoost 1.7's callback.py EarlyStopping: maximise when the metric starts with auc, aucpr,
// pre, pre@, map, ndcg, auc@, aucpr@, map@, ndcg@, except mape.
bool PythonMaximises(const std::string& metric) {
  if (metric == "mape") return false;
  for (const std::string prefix : {"auc", "aucpr", "pre", "map", "ndcg"}) {
    if (metric.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

TEST(MetricRanks, EarlyStoppingDirectionOfEveryMetric) {
  for (std::string name : MetricNames()) {
    if (name == "error@t") name = "error@0.3";
    if (name == "tweedie-nloglik@p") name = "tweedie-nloglik@1.5";
    if (const auto k = name.find("@k"); k != std::string::npos) name.replace(k, 2, "@5");
    ASSERT_TRUE(Metric::Create(name).ok()) << name << " is listed but does not exist";
    EXPECT_EQ(Metric::Maximised(name), PythonMaximises(name)) << name;
  }
  EXPECT_FALSE(Metric::Maximised("mape"));
}

}  // namespace
}  // namespace treering::booster
