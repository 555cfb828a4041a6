// Every objective's gradient against a finite difference of its loss, and its hessian against
// a finite difference of the gradient (times XGBoost's documented factors).
#include "booster/objective.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>

#include <gtest/gtest.h>

namespace treering::booster {
namespace {

std::unique_ptr<Objective> Make(const std::string& name, int num_class = 0) {
  ObjectiveConfig c;
  c.name = name;
  c.num_class = num_class;
  auto obj = Objective::Create(c);
  EXPECT_TRUE(obj.ok());
  return std::move(obj).value();
}

double Sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// Loss of one row as a function of its margin (the objective's negative log-likelihood).
double Loss(const std::string& name, double m, double y) {
  if (name == "reg:squarederror") return 0.5 * (m - y) * (m - y);
  if (name == "count:poisson") return std::exp(m) - y * m;
  const double p = Sigmoid(m);
  return -y * std::log(p) - (1 - y) * std::log(1 - p);
}

class OneOutputObjective : public ::testing::TestWithParam<std::string> {};

TEST_P(OneOutputObjective, GradientMatchesFiniteDifference) {
  const std::string name = GetParam();
  auto obj = Make(name);
  const std::vector<float> margin = {-1.5f, -0.2f, 0.3f, 1.1f};
  const std::vector<float> label =
      name == "count:poisson" ? std::vector<float>{0, 1, 3, 2} : std::vector<float>{0, 1, 1, 0};
  const std::vector<float> weight = {1.0f, 2.0f, 0.5f, 1.0f};
  std::vector<GradientPair> g;
  obj->GetGradient(margin, {&label, &weight}, Context{.nthread = 1}, &g);
  const double h = 1e-4;
  for (std::size_t i = 0; i < margin.size(); ++i) {
    const double m = margin[i], y = label[i], w = weight[i];
    const double fd_grad = w * (Loss(name, m + h, y) - Loss(name, m - h, y)) / (2 * h);
    const double fd_hess =
        w * (Loss(name, m + h, y) - 2 * Loss(name, m, y) + Loss(name, m - h, y)) / (h * h);
    EXPECT_NEAR(g[i].grad, fd_grad, 1e-3 * std::max(1.0, std::fabs(fd_grad))) << name << i;
    // count:poisson's hessian is exp(margin + max_delta_step): a safeguard factor e^0.7.
    const double factor = name == "count:poisson" ? std::exp(0.7) : 1.0;
    EXPECT_NEAR(g[i].hess, factor * fd_hess, 2e-2 * std::max(1.0, fd_hess)) << name << i;
  }
}

INSTANTIATE_TEST_SUITE_P(All, OneOutputObjective,
                         ::testing::Values("reg:squarederror", "reg:logistic", "binary:logistic",
                                           "binary:logitraw", "count:poisson"),
                         [](const auto& info) {
                           std::string s = info.param;
                           for (char& c : s) c = std::isalnum(c) ? c : '_';
                           return s;
                         });

TEST(SoftmaxObjective, GradientMatchesFiniteDifferenceAndHessianIsTwice) {
  auto obj = Make("multi:softprob", 3);
  const std::vector<float> margin = {0.2f, -0.4f, 1.0f};
  const std::vector<float> label = {2.0f}, weight;
  std::vector<GradientPair> g;
  obj->GetGradient(margin, {&label, &weight}, Context{.nthread = 1}, &g);
  auto loss = [&](int k, double delta) {
    double m[3] = {margin[0], margin[1], margin[2]};
    m[k] += delta;
    const double z = std::exp(m[0]) + std::exp(m[1]) + std::exp(m[2]);
    return -(m[2] - std::log(z));
  };
  const double h = 1e-4;
  for (int k = 0; k < 3; ++k) {
    const double fd_grad = (loss(k, h) - loss(k, -h)) / (2 * h);
    const double fd_hess = (loss(k, h) - 2 * loss(k, 0) + loss(k, -h)) / (h * h);
    EXPECT_NEAR(g[k].grad, fd_grad, 1e-3);
    EXPECT_NEAR(g[k].hess, 2 * fd_hess, 2e-2);  // XGBoost uses 2 p (1 - p)
  }
}

TEST(Objective, TransformsAndBaseScore) {
  std::vector<float> v = {0.0f, 2.0f};
  Make("binary:logistic")->PredTransform(&v, Context{.nthread = 1});
  EXPECT_FLOAT_EQ(v[0], 0.5f);
  EXPECT_FLOAT_EQ(v[1], static_cast<float>(Sigmoid(2.0)));
  EXPECT_FLOAT_EQ(Make("binary:logistic")->ProbToMargin(0.5f).value(), 0.0f);
  EXPECT_FALSE(Make("binary:logistic")->ProbToMargin(1.5f).ok());
  EXPECT_FLOAT_EQ(Make("count:poisson")->ProbToMargin(0.5f).value(), std::log(0.5f));
  std::vector<float> classes = {0.1f, 0.9f, 0.3f, 2.0f, -1.0f, 0.0f};
  Make("multi:softmax", 3)->PredTransform(&classes, Context{.nthread = 1});
  EXPECT_EQ(classes, (std::vector<float>{1.0f, 0.0f}));
  EXPECT_EQ(Make("multi:softmax", 3)->DefaultMetric(), "merror");
  EXPECT_EQ(Make("binary:logitraw")->DefaultMetric(), "auc");
}

// PredTransform runs the exp through the 8-wide replica in blocks: every value must equal the
// scalar formula bit for bit (sizes across the 1024-value chunks and the two threads' blocks,
// margins with |x| >= 88, infinities).
TEST(Objective, PredTransformEqualsScalarFormulaBitForBit) {
  std::mt19937 rng(9);
  std::normal_distribution<float> normal(0.0f, 6.0f);
  std::vector<float> margins(70001);
  for (float& m : margins) m = normal(rng);
  margins[5] = 95.0f;
  margins[6] = -120.0f;
  margins[7] = INFINITY;
  margins[8] = -INFINITY;
  for (const char* name : {"binary:logistic", "reg:logistic", "count:poisson"}) {
    for (int nthread : {1, 2}) {
      std::vector<float> v = margins;
      Make(name)->PredTransform(&v, Context{.nthread = nthread});
      const bool poisson = std::string(name) == "count:poisson";
      for (std::size_t i = 0; i < v.size(); ++i) {
        const float want = poisson ? std::exp(margins[i]) : 1.0f / (1.0f + std::exp(-margins[i]));
        ASSERT_EQ(std::memcmp(&v[i], &want, sizeof(float)), 0)
            << name << " row " << i << " margin " << margins[i];
      }
    }
  }
}

// Squared-error pairs go 4 rows at a time: equal to (m - y) w, w bit for bit, with weights or
// without, tails, a NaN margin (its gradient is skipped by the maxima), and the maxima equal a
// scalar pass; 1 and 2 threads.
TEST(Objective, SquaredErrorBlocksEqualScalarFormula) {
  std::mt19937 rng(4);
  std::normal_distribution<float> normal(0.0f, 30.0f);
  std::uniform_real_distribution<float> uniform(0.1f, 2.0f);
  for (bool weighted : {false, true}) {
    const std::size_t n = 40003;
    std::vector<float> margin(n), label(n), weight(weighted ? n : 0);
    for (std::size_t i = 0; i < n; ++i) {
      margin[i] = normal(rng);
      label[i] = normal(rng);
      if (weighted) weight[i] = uniform(rng);
    }
    margin[9] = NAN;
    margin[100] = -9000.0f;   // the largest |gradient|, negative, in the 4-row part
    margin[n - 1] = 5000.0f;  // the largest positive one, in the tail
    for (int nthread : {1, 2}) {
      std::vector<GradientPair> got;
      const GradientMaxima m =
          Make("reg:squarederror")
              ->GetGradientAndMaxima(margin, {&label, &weight}, Context{.nthread = nthread}, &got);
      GradientMaxima want;
      for (std::size_t i = 0; i < n; ++i) {
        const float w = weighted ? weight[i] : 1.0f;
        const float g = (margin[i] - label[i]) * w;
        ASSERT_EQ(std::memcmp(&got[i].grad, &g, sizeof(float)), 0) << i;
        ASSERT_EQ(got[i].hess, w) << i;
        want.grad = std::max(want.grad, std::fabs(g));
        want.hess = std::max(want.hess, std::fabs(w));
      }
      EXPECT_EQ(m.grad, want.grad) << weighted << " " << nthread;
      EXPECT_EQ(m.hess, want.hess) << weighted << " " << nthread;
    }
  }
}

TEST(Objective, RejectsBadLabels) {
  const std::vector<float> bad = {0.0f, 1.5f}, none;
  EXPECT_FALSE(Make("binary:logistic")->CheckLabels({&bad, &none}).ok());
  EXPECT_FALSE(Make("multi:softprob", 2)->CheckLabels({&bad, &none}).ok());
  const std::vector<float> negative = {-1.0f};
  EXPECT_FALSE(Make("count:poisson")->CheckLabels({&negative, &none}).ok());
}

// Issue 17's objectives reject the labels XGBoost 1.7 rejects, with its reason and the row.
TEST(Objective, OtherObjectivesRejectLabelsAsXgboost) {
  const std::vector<float> none;
  const std::vector<std::pair<std::string, std::vector<float>>> cases = {
      {"reg:squaredlogerror", {0.5f, -1.0f}},
      {"reg:gamma", {2.0f, 0.0f}},
      {"reg:tweedie", {0.0f, -0.5f}},
      {"binary:hinge", {1.0f, 0.5f}}};
  for (const auto& [name, labels] : cases) {
    const Status s = Make(name)->CheckLabels({&labels, &none});
    ASSERT_FALSE(s.ok()) << name;
    EXPECT_NE(s.message().find("row 1"), std::string::npos) << s.message();
    EXPECT_NE(s.message().find(name), std::string::npos) << s.message();
  }
  const std::vector<float> fine = {-3.0f, 0.0f, 7.0f};  // any finite label
  EXPECT_TRUE(Make("reg:pseudohubererror")->CheckLabels({&fine, &none}).ok());
  EXPECT_TRUE(Make("survival:cox")->CheckLabels({&fine, &none}).ok());
}

TEST(Objective, OtherObjectivesDefaultsAsXgboost) {
  EXPECT_EQ(Make("reg:squaredlogerror")->DefaultMetric(), "rmsle");
  EXPECT_EQ(Make("reg:pseudohubererror")->DefaultMetric(), "mphe");
  EXPECT_EQ(Make("reg:gamma")->DefaultMetric(), "gamma-nloglik");
  EXPECT_EQ(Make("reg:tweedie")->DefaultMetric(), "tweedie-nloglik@1.5");
  EXPECT_EQ(Make("binary:hinge")->DefaultMetric(), "error");
  EXPECT_EQ(Make("survival:cox")->DefaultMetric(), "cox-nloglik");
  for (const char* log_link : {"reg:gamma", "reg:tweedie", "survival:cox"}) {
    EXPECT_FLOAT_EQ(Make(log_link)->ProbToMargin(2.0f).value(), std::log(2.0f)) << log_link;
    EXPECT_FALSE(Make(log_link)->ProbToMargin(0.0f).ok()) << log_link;
  }
  EXPECT_EQ(Make("reg:pseudohubererror")->ProbToMargin(-2.0f).value(), -2.0f);
  std::vector<float> hinge = {-0.5f, 0.0f, 0.25f};
  Make("binary:hinge")->PredTransform(&hinge, Context{.nthread = 1});
  EXPECT_EQ(hinge, (std::vector<float>{0.0f, 0.0f, 1.0f}));
}

TEST(Objective, BadObjectiveParametersAreClearErrors) {
  ObjectiveConfig c;
  c.name = "reg:tweedie";
  c.tweedie_variance_power = 2.0f;
  EXPECT_FALSE(Objective::Create(c).ok());
  c.name = "reg:pseudohubererror";
  c.huber_slope = 0.0f;
  EXPECT_FALSE(Objective::Create(c).ok());
}

// reg:absoluteerror (1.7's MeanAbsoluteError): sign(margin - label) * w and w; its leaves are
// refreshed to medians (LeafQuantile 0.5, booster_absolute_error checks the trees).
TEST(Objective, AbsoluteErrorGradients) {
  ObjectiveConfig c;
  c.name = "reg:absoluteerror";
  auto obj = Objective::Create(c);
  ASSERT_TRUE(obj.ok()) << obj.status().message();
  const std::vector<float> label = {1.0f, 2.0f, 3.0f}, weight = {2.0f, 0.5f, 1.0f};
  std::vector<GradientPair> g;
  (*obj)->GetGradient({2.0f, 2.0f, 2.0f}, {&label, &weight}, Context{.nthread = 1}, &g);
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g[0].grad, 2.0f);
  EXPECT_EQ(g[1].grad, 0.0f);
  EXPECT_EQ(g[2].grad, -1.0f);
  EXPECT_EQ(g[1].hess, 0.5f);
  EXPECT_EQ((*obj)->LeafQuantile(), 0.5);
  EXPECT_EQ((*obj)->DefaultMetric(), "mae");
  const std::vector<float> bad = {std::nanf("")}, none;
  EXPECT_FALSE((*obj)->CheckLabels({&bad, &none}).ok());
}

// survival:cox against the partial likelihood's derivatives written out for 4 rows (Breslow
// ties): times 1, 2, 2 (an event and a censored row), 3.
TEST(Objective, CoxGradientsByHand) {
  const std::vector<float> label = {2.0f, 1.0f, -2.0f, 3.0f}, none;
  const std::vector<float> margin = {0.1f, -0.3f, 0.5f, 0.2f};
  std::vector<GradientPair> got;
  Make("survival:cox")->GetGradient(margin, {&label, &none}, Context{.nthread = 1}, &got);
  std::vector<double> e(4);
  for (int i = 0; i < 4; ++i) e[i] = std::exp(double(margin[i]));
  const double all = e[0] + e[1] + e[2] + e[3], after1 = e[0] + e[2] + e[3], after2 = e[3];
  // Events at time 1 (row 1), 2 (row 0) and 3 (row 3); each row is at risk at events up to
  // its own time.
  const double r_row1 = 1 / all, r_rows02 = r_row1 + 1 / after1, r_row3 = r_rows02 + 1 / after2;
  const double s_row1 = 1 / (all * all), s_rows02 = s_row1 + 1 / (after1 * after1),
               s_row3 = s_rows02 + 1 / (after2 * after2);
  const double r[4] = {r_rows02, r_row1, r_rows02, r_row3};
  const double s[4] = {s_rows02, s_row1, s_rows02, s_row3};
  for (int i = 0; i < 4; ++i) {
    const double event = label[i] > 0 ? 1.0 : 0.0;
    EXPECT_NEAR(got[i].grad, e[i] * r[i] - event, 1e-6) << i;
    EXPECT_NEAR(got[i].hess, e[i] * r[i] - e[i] * e[i] * s[i], 1e-6) << i;
  }
}

}  // namespace
}  // namespace treering::booster
