// Several outputs per row beyond multi-class (issue 35 items 4 and 5): XGBoost 1.7's
// multi-target regression (labels as columns, one tree per target per round) and XGBoost 2.x's
// reg:quantileerror, against computed expectations: the pinball gradient and metric, each
// refreshed leaf equal to eta x the weighted alpha-quantile of its rows' residuals (on N thread
// ranks: the mean over ranks, 2.x's UpdateLeafValues), coverage of each predicted quantile,
// a target's trees equal to a one-target model's on that column, N ranks equal to one process
// for several targets, and bad input naming the key.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "booster/learner_param.h"
#include "booster/metric.h"
#include "booster/model_io.h"
#include "booster/objective.h"
#include "booster/tree/learner/gbtree_learner.h"
#include "booster/tree/predict/predictor.h"
#include "context_keys.h"
#include "synthetic_data.h"
#include "thread_world.h"

namespace treering::booster {
namespace {

using Params = std::vector<std::pair<std::string, std::string>>;

// Dense rows x features with a heteroscedastic label: y = 2 x0 + (1 + |x1|) e, e ~ N(0, 1);
// `targets` label columns (column t adds t x2), optional weights in [0.5, 2).
data::DMatrix NoisyData(std::size_t rows, int targets, bool weights, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  std::normal_distribution<float> e(0.0f, 1.0f);
  std::uniform_real_distribution<float> w(0.5f, 2.0f);
  data::DMatrix dm;
  dm.num_col = 3;
  dm.label_columns = static_cast<std::size_t>(targets);
  for (std::size_t r = 0; r < rows; ++r) {
    float x[3] = {u(rng), u(rng), u(rng)};
    for (std::uint32_t f = 0; f < 3; ++f) {
      dm.index.push_back(f);
      dm.value.push_back(x[f]);
    }
    dm.row_ptr.push_back(dm.index.size());
    const float noise = (1.0f + std::fabs(x[1])) * e(rng);
    for (int t = 0; t < targets; ++t) dm.label.push_back(2.0f * x[0] + t * x[2] + noise);
    if (weights) dm.weight.push_back(w(rng));
  }
  return dm;
}

std::unique_ptr<GBTreeLearner> Train(Params params, data::DMatrix* dm, int rounds,
                                     rabit::Comm* comm = &rabit::DefaultComm()) {
  params.emplace_back("tree_method", "hist");
  params.emplace_back("nthread", "1");
  auto learner = test::CreateWithKeys<GBTreeLearner>(params, comm);
  EXPECT_TRUE(learner.ok()) << learner.status().message();
  if (!learner.ok()) return nullptr;
  const Status s = learner.value()->SetTrainData(dm);
  EXPECT_TRUE(s.ok()) << s.message();
  for (int i = 0; i < rounds; ++i) EXPECT_TRUE(learner.value()->UpdateOneIter(i).ok());
  return std::move(learner).value();
}

std::vector<float> Predict(const GBTreeLearner& learner, data::DMatrix* dm) {
  std::vector<float> out;
  EXPECT_TRUE(learner.Predict(dm, PredictOptions{}, &out).ok());
  return out;
}

// Rank 0's model after `rounds` rounds on `world` thread ranks with contiguous shards.
GBTreeModel TrainOnRanks(const Params& params, const data::DMatrix& all, int world, int rounds) {
  std::vector<data::DMatrix> shards = testing::ContiguousShards(all, world);
  std::vector<std::string> json(static_cast<std::size_t>(world));
  treering::testing::ThreadWorld(world).Run([&](int rank, rabit::Comm* comm) {
    auto learner = Train(params, &shards[rank], rounds, comm);
    ASSERT_NE(learner, nullptr);
    auto text = ModelToJson(learner->Model());
    ASSERT_TRUE(text.ok());
    json[rank] = text.value();
  });
  for (int r = 1; r < world; ++r) EXPECT_EQ(json[r], json[0]) << "rank " << r;
  auto model = ModelFromJson(json[0], "rank 0");
  EXPECT_TRUE(model.ok());
  return model.ok() ? model.value() : GBTreeModel{};
}

// The weighted alpha-quantile as XGBoost's common::WeightedQuantile defines it, written out
// here: sort by value, the first value whose running weight reaches alpha x the total.
float ReferenceWeightedQuantile(double alpha, std::vector<std::pair<float, float>> vw) {
  std::stable_sort(vw.begin(), vw.end(), [](auto a, auto b) { return a.first < b.first; });
  float total = 0.0f;
  for (auto [v, w] : vw) total += w;
  float run = 0.0f;
  for (auto [v, w] : vw) {
    run += w;
    if (run >= static_cast<float>(total * alpha)) return v;
  }
  return vw.back().first;
}

TEST(QuantileAlpha, ParsesScalarsAndLists) {
  EXPECT_EQ(ParseQuantileAlpha("0.5").value(), std::vector<float>{0.5f});
  EXPECT_EQ(ParseQuantileAlpha("[0.1,0.5,0.9]").value(), (std::vector<float>{0.1f, 0.5f, 0.9f}));
  EXPECT_EQ(ParseQuantileAlpha("[0.1, 0.9]").value(), (std::vector<float>{0.1f, 0.9f}));
  EXPECT_EQ(ParseQuantileAlpha("(0.2 0.8)").value(), (std::vector<float>{0.2f, 0.8f}));
  EXPECT_EQ(ParseQuantileAlpha("[1E-1,5E-1]").value(), (std::vector<float>{0.1f, 0.5f}));
  for (const char* bad : {"", "[]", "0", "1", "1.5", "-0.1", "[0.1,x]", "[0.1", "nan"}) {
    EXPECT_FALSE(ParseQuantileAlpha(bad).ok()) << bad;
  }
  auto learner =
      GBTreeLearner::Create({{"quantile_alpha", "[0.2,1.2]"}}, Context{}, &rabit::DefaultComm());
  ASSERT_FALSE(learner.ok());
  EXPECT_EQ(learner.status().key(), "quantile_alpha");
  EXPECT_NE(learner.status().message().find("quantile_alpha"), std::string::npos);
}

TEST(QuantileObjective, PinballGradient) {
  ObjectiveConfig oc;
  oc.name = "reg:quantileerror";
  oc.quantile_alpha = {0.1f, 0.9f};
  auto obj = Objective::Create(oc);
  ASSERT_TRUE(obj.ok());
  EXPECT_EQ(obj.value()->NumGroups(), 2);
  EXPECT_EQ(obj.value()->DefaultMetric(), "quantile");
  const std::vector<float> label = {1.0f, 2.0f, 3.0f};
  const std::vector<float> weight = {1.0f, 2.0f, 0.5f};
  const std::vector<float> margin = {1.5f, 0.5f, 2.0f, 2.0f, 3.0f, 4.0f};  // rows x alphas
  std::vector<GradientPair> g;
  obj.value()->GetGradient(margin, LabelView{&label, &weight}, Context{}, &g);
  ASSERT_EQ(g.size(), 6u);
  // d = margin - label >= 0: (1 - alpha) w; d < 0: -alpha w; hess w.
  const float want[6][2] = {{0.9f * 1, 1}, {-0.9f * 1, 1},      {0.9f * 2, 2},
                            {0.1f * 2, 2}, {0.9f * 0.5f, 0.5f}, {0.1f * 0.5f, 0.5f}};
  for (int i = 0; i < 6; ++i) {
    EXPECT_FLOAT_EQ(g[i].grad, want[i][0]) << i;
    EXPECT_FLOAT_EQ(g[i].hess, want[i][1]) << i;
  }
  ObjectiveConfig bad = oc;
  bad.quantile_alpha = {};
  EXPECT_FALSE(Objective::Create(bad).ok());
}

TEST(QuantileMetric, WeightedPinballMean) {
  MetricConfig config;
  config.quantile_alpha = {0.25f, 0.75f};
  auto metric = Metric::Create("quantile", config);
  ASSERT_TRUE(metric.ok());
  const std::vector<float> label = {1.0f, 3.0f};
  const std::vector<float> weight = {1.0f, 3.0f};
  const std::vector<float> preds = {0.0f, 2.0f, 4.0f, 4.0f};
  // row 0: d = 1, -1 -> 0.25, 0.25; row 1: d = -1, -1 -> 0.75, 0.25 (each x its weight)
  const double want = (0.25 + 0.25 + 3 * (0.75 + 0.25)) / (2 * 1 + 2 * 3);
  auto v = metric.value()->Evaluate(preds, 2, LabelView{&label, &weight}, Context{},
                                    rabit::DefaultComm());
  ASSERT_TRUE(v.ok());
  EXPECT_NEAR(v.value(), want, 1e-12);
  EXPECT_FALSE(metric.value()
                   ->Evaluate(preds, 1, LabelView{&label, &weight}, Context{}, rabit::DefaultComm())
                   .ok());
}

TEST(QuantileRegression, CoverageOfEachAlpha) {
  data::DMatrix dm = NoisyData(5000, 1, false, 11);
  auto learner = Train(
      {{"objective", "reg:quantileerror"}, {"quantile_alpha", "[0.1,0.5,0.9]"}, {"eta", "0.3"}},
      &dm, 30);
  ASSERT_NE(learner, nullptr);
  EXPECT_EQ(learner->Model().num_target, 3);
  const std::vector<float> p = Predict(*learner, &dm);
  ASSERT_EQ(p.size(), 3 * dm.NumRows());
  const double alphas[3] = {0.1, 0.5, 0.9};
  for (int j = 0; j < 3; ++j) {
    std::size_t below = 0;
    for (std::size_t r = 0; r < dm.NumRows(); ++r) below += dm.label[r] <= p[r * 3 + j] ? 1 : 0;
    const double coverage = static_cast<double>(below) / dm.NumRows();
    EXPECT_LT(std::fabs(coverage - alphas[j]), 0.03) << "alpha " << alphas[j];
  }
}

// 2.x's rule from the shards: base_score = sum over ranks of (mean over alphas of the rank's
// quantile) x weight / total weight; each leaf of output j = eta x the mean over ranks with
// rows in it of the rank's weighted alpha_j-quantile of (label - base_score).
void ExpectQuantileRule(int world) {
  SCOPED_TRACE("world " + std::to_string(world));
  data::DMatrix all = NoisyData(600, 1, true, 5);
  const float eta = 0.5f;
  const std::vector<float> alphas = {0.2f, 0.7f};
  const GBTreeModel model = TrainOnRanks({{"objective", "reg:quantileerror"},
                                          {"quantile_alpha", "[0.2,0.7]"},
                                          {"eta", "0.5"},
                                          {"max_depth", "2"}},
                                         all, world, 1);
  ASSERT_EQ(model.trees.size(), 2u);
  EXPECT_EQ(model.tree_info, (std::vector<int>{0, 1}));
  const std::vector<data::DMatrix> shards = testing::ContiguousShards(all, world);
  double mean_times_w = 0.0, w_sum = 0.0;
  for (const data::DMatrix& s : shards) {
    double w = 0.0;
    std::vector<std::pair<float, float>> vw;
    for (std::size_t i = 0; i < s.NumRows(); ++i) {
      w += s.weight[i];
      vw.emplace_back(s.label[i], s.weight[i]);
    }
    float mean = 0.0f;
    for (float a : alphas) mean += ReferenceWeightedQuantile(a, vw) / 2.0f;
    mean_times_w += mean * w;
    w_sum += w;
  }
  EXPECT_NEAR(model.base_score, mean_times_w / (w_sum + 1e-6), 1e-5);
  for (int j = 0; j < 2; ++j) {
    const RegTree& tree = model.trees[j];
    for (int leaf = 0; leaf < tree.NumNodes(); ++leaf) {
      if (!tree.IsLeaf(leaf)) continue;
      float sum = 0.0f;
      int ranks = 0;
      for (const data::DMatrix& s : shards) {
        std::vector<std::pair<float, float>> vw;
        for (std::size_t i = 0; i < s.NumRows(); ++i) {
          std::vector<float> f(s.value.begin() + s.row_ptr[i], s.value.begin() + s.row_ptr[i + 1]);
          if (LeafOf(tree, f) == leaf) vw.emplace_back(s.label[i] - model.base_score, s.weight[i]);
        }
        if (vw.empty()) continue;
        sum += ReferenceWeightedQuantile(alphas[j], vw);
        ++ranks;
      }
      ASSERT_GT(ranks, 0);
      EXPECT_NEAR(tree.split_cond[leaf], sum / ranks * eta, 1e-5f)
          << "output " << j << " leaf " << leaf;
    }
  }
}

TEST(QuantileRegression, LeavesAreEtaTimesWeightedQuantiles) {
  for (int world : {1, 2, 3}) ExpectQuantileRule(world);
}

TEST(QuantileRegression, SeveralLabelColumnsRefused) {
  data::DMatrix dm = NoisyData(50, 2, false, 3);
  auto learner = test::CreateWithKeys<GBTreeLearner>(
      {{"objective", "reg:quantileerror"}, {"quantile_alpha", "[0.1,0.9]"}}, &rabit::DefaultComm());
  ASSERT_TRUE(learner.ok());
  const Status s = learner.value()->SetTrainData(&dm);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.key(), "quantile_alpha");
  EXPECT_NE(s.message().find("2 columns"), std::string::npos) << s.message();
  auto mismatch = test::CreateWithKeys<GBTreeLearner>(
      {{"objective", "reg:quantileerror"}, {"quantile_alpha", "[0.1,0.9]"}, {"num_target", "3"}},
      &rabit::DefaultComm());
  ASSERT_FALSE(mismatch.ok());
  EXPECT_EQ(mismatch.status().key(), "num_target");
}

// One tree per target per round, tree_info the target; with squarederror each target's trees
// are the trees of a one-target model trained on that column alone.
TEST(MultiTarget, EachTargetAsItsOwnModel) {
  data::DMatrix dm = NoisyData(400, 3, true, 9);
  const Params params = {{"max_depth", "3"}, {"eta", "0.4"}};
  auto multi = Train(params, &dm, 4);
  ASSERT_NE(multi, nullptr);
  const GBTreeModel& m = multi->Model();
  EXPECT_EQ(m.num_target, 3);
  ASSERT_EQ(m.trees.size(), 12u);
  EXPECT_EQ(m.tree_info, (std::vector<int>{0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2}));
  const std::vector<float> p = Predict(*multi, &dm);
  ASSERT_EQ(p.size(), dm.NumRows() * 3);
  for (int t = 0; t < 3; ++t) {
    data::DMatrix one = dm;
    one.label_columns = 1;
    one.label.clear();
    for (std::size_t r = 0; r < dm.NumRows(); ++r) one.label.push_back(dm.label[r * 3 + t]);
    auto single = Train(params, &one, 4);
    ASSERT_NE(single, nullptr);
    for (int round = 0; round < 4; ++round) {
      EXPECT_EQ(m.trees[round * 3 + t].split_cond, single->Model().trees[round].split_cond)
          << "target " << t << " round " << round;
    }
    const std::vector<float> q = Predict(*single, &one);
    for (std::size_t r = 0; r < dm.NumRows(); ++r) ASSERT_EQ(p[r * 3 + t], q[r]) << r;
  }
  auto round_trip = ModelFromJson(ModelToJson(m).value(), "json");
  ASSERT_TRUE(round_trip.ok());
  EXPECT_EQ(round_trip.value().num_target, 3);
}

TEST(MultiTarget, RanksEqualOneProcess) {
  data::DMatrix all = NoisyData(600, 2, true, 4);
  const Params params = {{"objective", "reg:pseudohubererror"}, {"max_depth", "3"}};
  const GBTreeModel one = TrainOnRanks(params, all, 1, 3);
  ASSERT_EQ(one.trees.size(), 6u);
  for (int world : {2, 3}) {
    const GBTreeModel many = TrainOnRanks(params, all, world, 3);
    EXPECT_EQ(ModelToJson(many).value(), ModelToJson(one).value()) << "world " << world;
  }
}

TEST(MultiTarget, BadInputNamesTheKey) {
  data::DMatrix dm = NoisyData(50, 2, false, 3);
  for (const char* objective : {"count:poisson", "reg:absoluteerror", "reg:gamma"}) {
    auto learner =
        test::CreateWithKeys<GBTreeLearner>({{"objective", objective}}, &rabit::DefaultComm());
    ASSERT_TRUE(learner.ok());
    const Status s = learner.value()->SetTrainData(&dm);
    ASSERT_FALSE(s.ok()) << objective;
    EXPECT_EQ(s.key(), "objective") << objective;
    EXPECT_NE(s.message().find("one label column"), std::string::npos) << s.message();
  }
  auto strategy = GBTreeLearner::Create({{"multi_strategy", "multi_output_tree"}}, Context{},
                                        &rabit::DefaultComm());
  ASSERT_FALSE(strategy.ok());
  EXPECT_EQ(strategy.status().key(), "multi_strategy");
  EXPECT_NE(strategy.status().message().find("multi_strategy"), std::string::npos);
  EXPECT_TRUE(GBTreeLearner::Create({{"multi_strategy", "one_output_per_tree"}}, Context{},
                                    &rabit::DefaultComm())
                  .ok());
  // An eval set with another number of label columns than the training labels.
  auto learner = test::CreateWithKeys<GBTreeLearner>({}, &rabit::DefaultComm());
  ASSERT_TRUE(learner.ok());
  ASSERT_TRUE(learner.value()->SetTrainData(&dm).ok());
  data::DMatrix three = NoisyData(50, 3, false, 3);
  const Status s = learner.value()->AddEvalSet("valid", &three);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.key(), "num_target");
  EXPECT_NE(s.message().find("3 columns"), std::string::npos) << s.message();
  // num_target given, labels with another count.
  auto fixed = test::CreateWithKeys<GBTreeLearner>({{"num_target", "3"}}, &rabit::DefaultComm());
  ASSERT_TRUE(fixed.ok());
  EXPECT_EQ(fixed.value()->SetTrainData(&dm).key(), "num_target");
}

}  // namespace
}  // namespace treering::booster
