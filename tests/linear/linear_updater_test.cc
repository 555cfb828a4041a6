// booster/linear against expectations computed here: the least-squares solution coordinate
// descent converges to, the lasso's all-zero solution, XGBoost's greedy pass length, one round
// of coord_descent written out in plain loops; then thread counts, N ranks, bad keys.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "booster/linear/linear_learner.h"
#include "booster/model_io.h"
#include "context_keys.h"
#include "thread_world.h"

namespace treering::booster::linear {
namespace {

using Params = std::vector<std::pair<std::string, std::string>>;

// rows x cols dense, y = x . coef + 1 + noise (noise 0: exactly linear).
data::DMatrix Dense(std::size_t rows, std::size_t cols, const std::vector<double>& coef,
                    double noise, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal;
  data::DMatrix dm;
  dm.num_col = cols;
  for (std::size_t r = 0; r < rows; ++r) {
    double y = 1.0;
    for (std::size_t c = 0; c < cols; ++c) {
      const float v = normal(rng);
      dm.index.push_back(static_cast<std::uint32_t>(c));
      dm.value.push_back(v);
      y += coef[c] * v;
    }
    dm.row_ptr.push_back(dm.index.size());
    dm.label.push_back(static_cast<float>(y + noise * normal(rng)));
  }
  return dm;
}

std::unique_ptr<LinearLearner> Train(const Params& params, data::DMatrix* dm, int rounds,
                                     rabit::Comm* comm = &rabit::DefaultComm()) {
  auto learner = test::CreateWithKeys<LinearLearner>(params, comm);
  EXPECT_TRUE(learner.ok()) << learner.status().message();
  if (!learner.ok()) return nullptr;
  EXPECT_TRUE(learner.value()->SetTrainData(dm).ok());
  for (int i = 0; i < rounds; ++i) EXPECT_TRUE(learner.value()->UpdateOneIter(i).ok());
  return std::move(learner).value();
}

TEST(LinearUpdater, CoordinateDescentConvergesToLeastSquares) {
  data::DMatrix dm = Dense(400, 3, {2.0, -1.0, 0.5}, 0.0, 1);
  for (const char* updater : {"shotgun", "coord_descent"}) {
    auto learner = Train({{"updater", updater}, {"eta", "1"}, {"base_score", "0"}}, &dm, 200);
    const std::vector<float>& w = learner->Model().linear_weights;
    ASSERT_EQ(w.size(), 4u);
    EXPECT_NEAR(w[0], 2.0, 1e-4) << updater;
    EXPECT_NEAR(w[1], -1.0, 1e-4) << updater;
    EXPECT_NEAR(w[2], 0.5, 1e-4) << updater;
    EXPECT_NEAR(w[3], 1.0, 1e-4) << updater;  // the bias
  }
}

// An L1 penalty above every |x . residual| / n keeps the weights at 0 (the lasso's rule).
TEST(LinearUpdater, LargeAlphaKeepsWeightsAtZero) {
  data::DMatrix dm = Dense(200, 3, {0.3, -0.2, 0.1}, 0.1, 2);
  auto learner = Train({{"alpha", "10"}, {"updater", "coord_descent"}}, &dm, 5);
  const std::vector<float>& w = learner->Model().linear_weights;
  for (int f = 0; f < 3; ++f) EXPECT_EQ(w[f], 0.0f) << f;
  EXPECT_NE(w[3], 0.0f);  // the bias has no penalty
}

// XGBoost's greedy and thrifty passes end when the step count reaches num_feature, so with two
// features one round moves one weight.
TEST(LinearUpdater, GreedyPassUpdatesAllButOneFeature) {
  data::DMatrix dm = Dense(100, 2, {1.0, 3.0}, 0.0, 3);
  for (const char* selector : {"greedy", "thrifty"}) {
    auto learner = Train({{"updater", "coord_descent"}, {"feature_selector", selector}}, &dm, 1);
    const std::vector<float>& w = learner->Model().linear_weights;
    EXPECT_EQ(w[0], 0.0f) << selector;  // feature 1 has the larger step and goes first
    EXPECT_NE(w[1], 0.0f) << selector;
  }
}

// One coord_descent round written out: bias Newton step, then each feature in turn with the
// elastic-net step, residuals updated (squared error: grad = margin - y, hess = 1).
TEST(LinearUpdater, OneRoundMatchesPlainLoops) {
  data::DMatrix dm = Dense(50, 3, {1.0, -2.0, 0.5}, 0.3, 4);
  const double eta = 0.5, lambda = 0.2, alpha = 0.05, n = 50;
  auto learner = Train(
      {{"updater", "coord_descent"}, {"eta", "0.5"}, {"lambda", "0.2"}, {"alpha", "0.05"}}, &dm, 1);
  std::vector<double> grad(50);
  for (int r = 0; r < 50; ++r) grad[r] = 0.5 - dm.label[r];
  double bias = -eta * [&] {
    double s = 0;
    for (double g : grad) s += g;
    return s / n;
  }();
  for (double& g : grad) g += bias;
  std::vector<double> w(3, 0.0);
  for (int f = 0; f < 3; ++f) {
    double sg = 0, sh = 0;
    for (int r = 0; r < 50; ++r) {
      const double x = dm.value[r * 3 + f];
      sg += grad[r] * x;
      sh += x * x;
    }
    const double l = lambda * n, a = alpha * n;
    double step = (w[f] - sg / (sh + l) >= 0) ? std::max(-(sg + a) / (sh + l), -w[f])
                                              : std::min(-(sg - a) / (sh + l), -w[f]);
    step *= eta;
    w[f] += step;
    for (int r = 0; r < 50; ++r) grad[r] += dm.value[r * 3 + f] * step;
  }
  const std::vector<float>& got = learner->Model().linear_weights;
  for (int f = 0; f < 3; ++f) EXPECT_NEAR(got[f], w[f], 1e-5) << f;
  EXPECT_NEAR(got[3], bias, 1e-6);
}

// Sums run in fixed blocks (gradient_stats.h): 1 and 4 threads give the same bytes, also with
// columns longer than a block. At 70000 rows the margins and thrifty's sums of all features run
// on several threads (a step's own passes take threads from 2^22 entries on: the same blocks).
TEST(LinearUpdater, ModelDoesNotDependOnThreads) {
  data::DMatrix dm = Dense(70000, 3, {0.5, -0.25, 1.0}, 0.5, 5);
  const std::vector<Params> cases = {
      {{"updater", "shotgun"}},
      {{"updater", "coord_descent"}, {"feature_selector", "thrifty"}},
      {{"updater", "coord_descent"}, {"feature_selector", "greedy"}}};
  for (const Params& params : cases) {
    Params one = params, four = params;
    one.emplace_back("nthread", "1");
    four.emplace_back("nthread", "4");
    EXPECT_EQ(ModelToJson(Train(one, &dm, 3)->Model()).value(),
              ModelToJson(Train(four, &dm, 3)->Model()).value())
        << params.back().second;
  }
}

data::DMatrix Rows(const data::DMatrix& dm, std::size_t begin, std::size_t end) {
  data::DMatrix out;
  out.num_col = dm.num_col;
  for (std::size_t r = begin; r < end; ++r) {
    for (std::uint64_t k = dm.row_ptr[r]; k < dm.row_ptr[r + 1]; ++k) {
      out.index.push_back(dm.index[k]);
      out.value.push_back(dm.value[k]);
    }
    out.row_ptr.push_back(out.index.size());
    out.label.push_back(dm.label[r]);
  }
  return out;
}

// Every sum is allreduced, so N ranks on contiguous shards train the one-process model (to the
// order of adding the ranks' partial sums: 1e-6), and all ranks hold the same weights.
TEST(LinearUpdater, RanksTrainTheOneProcessModel) {
  data::DMatrix all = Dense(300, 4, {1.0, -0.5, 0.0, 2.0}, 0.5, 6);
  for (float& y : all.label) y = y > 1.0f ? 1.0f : 0.0f;
  const Params params = {{"objective", "binary:logistic"},
                         {"updater", "coord_descent"},
                         {"feature_selector", "thrifty"},
                         {"lambda", "0.1"},
                         {"top_k", "3"}};
  auto single = Train(params, &all, 4);
  for (int world : {2, 3}) {
    std::vector<data::DMatrix> shards;
    for (int r = 0; r < world; ++r)
      shards.push_back(Rows(all, 300 * r / world, 300 * (r + 1) / world));
    std::vector<std::vector<float>> weights(world);
    treering::testing::ThreadWorld(world).Run([&](int rank, rabit::Comm* comm) {
      auto learner = Train(params, &shards[rank], 4, comm);
      weights[rank] = learner->Model().linear_weights;
      EXPECT_TRUE(learner->CheckRanksAgree(3, true).ok());  // debug_synchronize's check
    });
    for (int r = 0; r < world; ++r) {
      EXPECT_EQ(weights[r], weights[0]) << "world " << world << " rank " << r;
      for (std::size_t i = 0; i < weights[r].size(); ++i) {
        EXPECT_NEAR(weights[r][i], single->Model().linear_weights[i], 1e-6) << world;
      }
    }
  }
}

TEST(LinearParams, BadValuesNameTheKey) {
  const std::vector<std::pair<Params, std::string>> cases = {
      {{{"feature_selector", "bogus"}}, "feature_selector"},
      {{{"top_k", "-1"}}, "top_k"},
      {{{"updater", "gpu_coord"}}, "updater"},
      {{{"lambda", "-1"}}, "lambda"},
      {{{"feature_selector", "greedy"}}, "feature_selector"},  // shotgun: cyclic or shuffle
  };
  for (const auto& [params, key] : cases) {
    auto learner = test::CreateWithKeys<LinearLearner>(params, &rabit::DefaultComm());
    ASSERT_FALSE(learner.ok()) << key;
    EXPECT_EQ(learner.status().key(), key);
    EXPECT_NE(learner.status().message().find(key), std::string::npos)
        << learner.status().message();
  }
}

}  // namespace
}  // namespace treering::booster::linear
