// survival:aft (issue 35): the loss, gradient and hessian of each noise distribution against
// closed forms and against numeric derivatives of the loss, XGBoost's limits and clipping far
// outside an interval, the objective's float rounding and weights, the survival metrics on
// hand-computed rows, and a learner on N thread ranks equal to one process.
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "aft_distribution.h"
#include "booster/metric.h"
#include "booster/model_io.h"
#include "booster/objective.h"
#include "booster/tree/learner/gbtree_learner.h"
#include "context_keys.h"
#include "thread_world.h"

namespace treering::booster {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(AftLoss, NormalUncensoredClosedForm) {
  // z = (log y - pred) / s: loss = log(s y sqrt(2 pi)) + z^2 / 2, grad = -z / s, hess = 1 / s^2.
  const double y = 3.0, pred = 0.4, s = 1.3;
  const double z = (std::log(y) - pred) / s;
  EXPECT_NEAR(aft::Loss<aft::Normal>(y, y, pred, s),
              std::log(s * y * std::sqrt(2 * aft::kPi)) + z * z / 2, 1e-12);
  EXPECT_NEAR(aft::Gradient<aft::Normal>(y, y, pred, s), -z / s, 1e-12);
  EXPECT_NEAR(aft::Hessian<aft::Normal>(y, y, pred, s), 1 / (s * s), 1e-12);
}

TEST(AftLoss, LogisticUncensoredClosedForm) {
  // pdf = w / (1 + w)^2 with w = e^z: grad = (1 - w) / (s (1 + w)), hess = 2 w / (s (1 + w))^2.
  const double y = 0.5, pred = 0.2, s = 0.8;
  const double z = (std::log(y) - pred) / s, w = std::exp(z);
  EXPECT_NEAR(aft::Loss<aft::Logistic>(y, y, pred, s), -std::log(w / ((1 + w) * (1 + w)) / (s * y)),
              1e-12);
  EXPECT_NEAR(aft::Gradient<aft::Logistic>(y, y, pred, s), (1 - w) / (s * (1 + w)), 1e-12);
  EXPECT_NEAR(aft::Hessian<aft::Logistic>(y, y, pred, s), 2 * w / (s * s * (1 + w) * (1 + w)),
              1e-12);
}

TEST(AftLoss, ExtremeUncensoredClosedForm) {
  // pdf = w e^-w: loss = w - z + log(s y), grad = (1 - w) / s, hess = w / s^2.
  const double y = 2.0, pred = 1.1, s = 0.9;
  const double z = (std::log(y) - pred) / s, w = std::exp(z);
  EXPECT_NEAR(aft::Loss<aft::Extreme>(y, y, pred, s), w - z + std::log(s * y), 1e-12);
  EXPECT_NEAR(aft::Gradient<aft::Extreme>(y, y, pred, s), (1 - w) / s, 1e-12);
  EXPECT_NEAR(aft::Hessian<aft::Extreme>(y, y, pred, s), w / (s * s), 1e-12);
}

// Gradient and hessian are the first and second derivatives of the loss in the margin, for
// every distribution and every kind of interval, where no limit or clip applies.
template <typename D>
void ExpectDerivativesOfLoss(const char* name) {
  struct Interval {
    double lower, upper;
  };
  const Interval intervals[] = {{2.0, 2.0}, {2.0, kInf}, {0.0, 2.0}, {1.5, 4.0}};
  for (const Interval& iv : intervals) {
    for (double pred : {-0.5, 0.3, 1.2}) {
      for (double s : {0.7, 1.0, 1.8}) {
        SCOPED_TRACE(std::string(name) + " [" + std::to_string(iv.lower) + ", " +
                     std::to_string(iv.upper) + "] pred " + std::to_string(pred) + " s " +
                     std::to_string(s));
        const double h = 1e-4;
        const auto loss = [&](double p) { return aft::Loss<D>(iv.lower, iv.upper, p, s); };
        const double d1 = (loss(pred + h) - loss(pred - h)) / (2 * h);
        const double d2 = (loss(pred + h) - 2 * loss(pred) + loss(pred - h)) / (h * h);
        EXPECT_NEAR(aft::Gradient<D>(iv.lower, iv.upper, pred, s), d1, 1e-6);
        EXPECT_NEAR(aft::Hessian<D>(iv.lower, iv.upper, pred, s), std::max(d2, 1e-16), 1e-4);
      }
    }
  }
}

TEST(AftLoss, GradientAndHessianAreDerivativesOfTheLoss) {
  ExpectDerivativesOfLoss<aft::Normal>("normal");
  ExpectDerivativesOfLoss<aft::Logistic>("logistic");
  ExpectDerivativesOfLoss<aft::Extreme>("extreme");
}

TEST(AftLoss, FarOutsideTheIntervalXGBoostLimitsAndClipping) {
  // Right-censored at 1e10 with the margin at -100 and s = 0.1: z = 1230, the cdf is 1 and the
  // pdf 0, so 0 / 0 becomes XGBoost's limit: gradient -15, hessian 1 / s^2 = 100 clipped to 15.
  EXPECT_EQ(aft::Gradient<aft::Normal>(1e10, kInf, -100, 0.1), -15.0);
  EXPECT_EQ(aft::Hessian<aft::Normal>(1e10, kInf, -100, 0.1), 15.0);
  // Left-censored below 1 with the margin at +100: z = -1000, limit +15 and 1 / s^2 -> 15.
  EXPECT_EQ(aft::Gradient<aft::Normal>(0, 1, 100, 0.1), 15.0);
  EXPECT_EQ(aft::Gradient<aft::Logistic>(1e10, kInf, -100, 0.1), -1.0 / 0.1);
  EXPECT_EQ(aft::Hessian<aft::Logistic>(1e10, kInf, -100, 0.1), 1e-16);
  EXPECT_EQ(aft::Gradient<aft::Extreme>(0, 1, 1000, 0.5), 2.0);
  // An uncensored row at z = 5 with s = 0.1: -z / s = -50 and 1 / s^2 = 100, both clipped.
  const double y = std::exp(0.5);
  EXPECT_EQ(aft::Gradient<aft::Normal>(y, y, 0.0, 0.1), -15.0);
  EXPECT_EQ(aft::Hessian<aft::Normal>(y, y, 0.0, 0.1), 15.0);
  // A likelihood below 1e-12 counts as 1e-12.
  EXPECT_NEAR(aft::Loss<aft::Normal>(1e10, kInf, -100, 0.1), -std::log(1e-12), 1e-9);
}

TEST(AftObjective, FloatGradientsTimesWeightAndExpPredictions) {
  ObjectiveConfig config;
  config.name = "survival:aft";
  config.aft_loss_distribution = "logistic";
  config.aft_loss_distribution_scale = 1.2f;
  auto objective = Objective::Create(config);
  ASSERT_TRUE(objective.ok()) << objective.status().message();
  const std::vector<float> label, weight = {0.5f, 2.0f, 1.0f};
  const std::vector<float> lower = {1.0f, 0.0f, 2.0f}, upper = {1.0f, 3.0f, INFINITY};
  LabelView view{&label, &weight};
  view.lower_bound = &lower;
  view.upper_bound = &upper;
  ASSERT_TRUE(objective.value()->CheckLabels(view).ok());
  const std::vector<float> margin = {0.25f, -0.5f, 1.0f};
  std::vector<GradientPair> g;
  objective.value()->GetGradient(margin, view, Context{.nthread = 1}, &g);
  ASSERT_EQ(g.size(), 3u);
  const double sigma = 1.2f;
  for (std::size_t i = 0; i < 3; ++i) {
    const auto grad = static_cast<float>(
        aft::Gradient<aft::Logistic>(lower[i], upper[i], static_cast<double>(margin[i]), sigma));
    const auto hess = static_cast<float>(
        aft::Hessian<aft::Logistic>(lower[i], upper[i], static_cast<double>(margin[i]), sigma));
    EXPECT_EQ(g[i].grad, grad * weight[i]) << i;
    EXPECT_EQ(g[i].hess, hess * weight[i]) << i;
  }
  std::vector<float> preds = margin;
  objective.value()->PredTransform(&preds, Context{});
  EXPECT_EQ(preds[1], std::exp(-0.5f));
  std::vector<float> eval = margin;
  objective.value()->EvalTransform(&eval, Context{});
  EXPECT_EQ(eval, margin);  // the survival metrics take log time
  EXPECT_EQ(objective.value()->DefaultMetric(), "aft-nloglik");
  EXPECT_EQ(objective.value()->ProbToMargin(0.5f).value(), std::log(0.5f));
}

TEST(AftObjective, RefusesBadBoundsAndParameters) {
  ObjectiveConfig config;
  config.name = "survival:aft";
  auto objective = Objective::Create(config);
  ASSERT_TRUE(objective.ok());
  const std::vector<float> label, weight;
  std::vector<float> lower = {1.0f, 3.0f}, upper = {2.0f, 2.0f};
  LabelView view{&label, &weight};
  EXPECT_NE(objective.value()->CheckLabels(view).message().find("label_lower_bound"),
            std::string::npos);
  view.lower_bound = &lower;
  view.upper_bound = &upper;
  EXPECT_NE(objective.value()->CheckLabels(view).message().find("row 1"), std::string::npos);
  lower[1] = NAN;
  EXPECT_NE(objective.value()->CheckLabels(view).message().find("row 1"), std::string::npos);
  config.aft_loss_distribution = "weibull";
  EXPECT_FALSE(Objective::Create(config).ok());
  config.aft_loss_distribution = "normal";
  config.aft_loss_distribution_scale = 0;
  EXPECT_FALSE(Objective::Create(config).ok());
}

TEST(SurvivalMetrics, HandComputedRows) {
  const std::vector<float> label, weight = {1.0f, 3.0f, 2.0f};
  const std::vector<float> lower = {1.0f, 0.0f, 2.0f}, upper = {1.0f, 3.0f, INFINITY};
  LabelView view{&label, &weight};
  view.lower_bound = &lower;
  view.upper_bound = &upper;
  // exp(margin): 1 (inside [1, 1]), e^2 = 7.4 (above 3), e^0.5 = 1.6 (below 2).
  const std::vector<float> margin = {0.0f, 2.0f, 0.5f};
  auto acc = Metric::Create("interval-regression-accuracy");
  ASSERT_TRUE(acc.ok());
  EXPECT_DOUBLE_EQ(acc.value()->Evaluate(margin, 1, view, Context{}, rabit::DefaultComm()).value(),
                   1.0 / 6);
  MetricConfig config;
  config.aft_loss_distribution = "extreme";
  config.aft_loss_distribution_scale = 0.5f;
  auto nll = Metric::Create("aft-nloglik", config);
  ASSERT_TRUE(nll.ok());
  double want = 0;
  for (int i = 0; i < 3; ++i) {
    want += weight[i] * aft::Loss<aft::Extreme>(lower[i], upper[i], margin[i], 0.5);
  }
  EXPECT_NEAR(nll.value()->Evaluate(margin, 1, view, Context{}, rabit::DefaultComm()).value(),
              want / 6, 1e-12);
}

// Survival rows: features x0..x2 on a grid (exact cuts), bounds of every censoring kind.
data::DMatrix SurvivalRows(std::size_t n) {
  data::DMatrix dm;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::uint32_t f = 0; f < 3; ++f) {
      dm.index.push_back(f);
      dm.value.push_back(static_cast<float>((i * (f + 3) + f) % 17) / 4.0f);
    }
    dm.row_ptr.push_back(dm.index.size());
    const float t = std::exp(dm.value[dm.value.size() - 3] / 3.0f - dm.value.back() / 5.0f);
    const std::size_t kind = i % 4;
    dm.label_lower_bound.push_back(kind == 2 ? 0.0f : kind == 3 ? t * 0.6f : t);
    dm.label_upper_bound.push_back(kind == 1 ? INFINITY : kind == 3 ? t * 1.5f : t);
    dm.weight.push_back(1.0f + static_cast<float>(i % 3) / 2.0f);
  }
  dm.num_col = 3;
  return dm;
}

data::DMatrix Shard(const data::DMatrix& all, std::size_t begin, std::size_t end) {
  data::DMatrix out;
  for (std::size_t r = begin; r < end; ++r) {
    for (std::uint64_t k = all.row_ptr[r]; k < all.row_ptr[r + 1]; ++k) {
      out.index.push_back(all.index[k]);
      out.value.push_back(all.value[k]);
    }
    out.row_ptr.push_back(out.index.size());
    out.label_lower_bound.push_back(all.label_lower_bound[r]);
    out.label_upper_bound.push_back(all.label_upper_bound[r]);
    out.weight.push_back(all.weight[r]);
  }
  out.num_col = all.num_col;
  return out;
}

struct Outcome {
  std::string model;
  std::vector<EvalResult> eval;
};

std::vector<Outcome> TrainOnRanks(const data::DMatrix& all, int world) {
  const test::KeyList params = {{"objective", "survival:aft"},
                                {"aft_loss_distribution", "extreme"},
                                {"aft_loss_distribution_scale", "0.8"},
                                {"eval_metric", "aft-nloglik"},
                                {"eval_metric", "interval-regression-accuracy"},
                                {"tree_method", "hist"},
                                {"max_depth", "3"},
                                {"nthread", "1"}};
  std::vector<data::DMatrix> shards;
  for (int r = 0; r < world; ++r) {
    shards.push_back(Shard(all, all.NumRows() * r / world, all.NumRows() * (r + 1) / world));
  }
  std::vector<Outcome> out(static_cast<std::size_t>(world));
  treering::testing::ThreadWorld(world).Run([&](int rank, rabit::Comm* comm) {
    auto learner = test::CreateWithKeys<GBTreeLearner>(params, comm);
    ASSERT_TRUE(learner.ok()) << learner.status().message();
    data::DMatrix& shard = shards[static_cast<std::size_t>(rank)];
    const Status st = learner.value()->SetTrainData(&shard);
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_TRUE(learner.value()->AddEvalSet("train", &shard).ok());
    for (int i = 0; i < 4; ++i) {
      ASSERT_TRUE(learner.value()->UpdateOneIter(i).ok());
      auto results = learner.value()->EvalOneIter(i);
      ASSERT_TRUE(results.ok()) << results.status().message();
      out[static_cast<std::size_t>(rank)].eval = results.value();
    }
    out[static_cast<std::size_t>(rank)].model = ModelToJson(learner.value()->Model()).value();
  });
  return out;
}

TEST(AftDistributed, RanksEqualOneProcess) {
  const data::DMatrix all = SurvivalRows(500);
  const std::vector<Outcome> single = TrainOnRanks(all, 1);
  ASSERT_EQ(single[0].eval.size(), 2u);
  for (int world : {2, 3, 5}) {
    SCOPED_TRACE("world " + std::to_string(world));
    const std::vector<Outcome> ranks = TrainOnRanks(all, world);
    for (const Outcome& got : ranks) {
      EXPECT_EQ(got.model, single[0].model);
      ASSERT_EQ(got.eval.size(), 2u);
      for (std::size_t m = 0; m < 2; ++m) {
        EXPECT_EQ(got.eval[m].name, single[0].eval[m].name);
        EXPECT_NEAR(got.eval[m].value, single[0].eval[m].value, 1e-12);
      }
    }
  }
}

}  // namespace
}  // namespace treering::booster
