// DART's dropout and weights (dart_weights.h) against XGBoost 1.7's formulas; DART on N thread
// ranks grows the model one process grows (every rank draws the same drops); and
// reg:absoluteerror's refresh on N ranks against 1.7's rule (adaptive.h UpdateLeafValues): a
// leaf becomes the mean over ranks of each rank's median residual in it, base_score the
// weight-averaged median of the ranks' labels.
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "booster/model_io.h"
#include "booster/tree/dart/dart_weights.h"
#include "booster/tree/grow/leaf_refresh.h"
#include "booster/tree/learner/gbtree_learner.h"
#include "booster/tree/predict/predictor.h"
#include "context_keys.h"
#include "synthetic_data.h"
#include "thread_world.h"

namespace treering::booster {
namespace {

using Params = std::vector<std::pair<std::string, std::string>>;

DartParam Dart(float rate_drop, float skip_drop = 0.0f, bool one_drop = false) {
  DartParam p;
  p.booster = "dart";
  p.rate_drop = rate_drop;
  p.skip_drop = skip_drop;
  p.one_drop = one_drop;
  return p;
}

TEST(DartDropout, CertainDraws) {
  const std::vector<float> w = {1.0f, 0.5f, 0.25f};
  DartDropout all(Dart(1.0f), 0);
  EXPECT_EQ(all.SelectDrops(w), (std::vector<std::size_t>{0, 1, 2}));
  DartDropout skipped(Dart(0.9f, 1.0f), 0);
  EXPECT_TRUE(skipped.SelectDrops(w).empty());
  DartDropout none(Dart(0.0f), 0);
  EXPECT_TRUE(none.SelectDrops(w).empty());
  DartDropout one(Dart(0.0f, 0.0f, true), 0);
  const auto drops = one.SelectDrops(w);
  ASSERT_EQ(drops.size(), 1u);
  EXPECT_LT(drops[0], 3u);
  EXPECT_TRUE(one.SelectDrops({}).empty());  // nothing to drop in the first round
}

TEST(DartDropout, SeedDecidesTheDrops) {
  const std::vector<float> w(64, 1.0f);
  DartDropout a(Dart(0.5f), 3), b(Dart(0.5f), 3), c(Dart(0.5f), 4);
  const auto da = a.SelectDrops(w);
  EXPECT_EQ(da, b.SelectDrops(w));
  EXPECT_NE(da, c.SelectDrops(w));
  b.Discard(1);  // a draw taken elsewhere shifts the stream
  EXPECT_NE(a.SelectDrops(w), b.SelectDrops(w));
}

TEST(DartDropout, RatesAreRespected) {
  const std::vector<float> w(20000, 1.0f);
  DartDropout uniform(Dart(0.3f), 1);
  EXPECT_NEAR(uniform.SelectDrops(w).size() / 20000.0, 0.3, 0.02);
  // weighted: tree i kept with probability rate * n * w_i / sum(w); half the trees weigh 3x
  DartParam p = Dart(0.2f);
  p.sample_type = DartSample::kWeighted;
  std::vector<float> uneven(20000, 1.0f);
  for (std::size_t i = 0; i < uneven.size(); i += 2) uneven[i] = 3.0f;
  DartDropout weighted(p, 1);
  std::size_t heavy = 0, light = 0;
  for (std::size_t i : weighted.SelectDrops(uneven)) (i % 2 == 0 ? heavy : light) += 1;
  EXPECT_NEAR(heavy / 10000.0, 0.2 * 3 / 2, 0.02);
  EXPECT_NEAR(light / 10000.0, 0.2 * 1 / 2, 0.02);
}

TEST(DartDropout, CommitFollowsNormalizeType) {
  DartDropout tree(Dart(0.5f), 0);
  std::vector<float> w = {1.0f, 1.0f, 1.0f};
  tree.Commit({0, 2}, 1, 0.3f, &w);  // k = 2 dropped: k / (k + eta), new 1 / (k + eta)
  const float k_factor = static_cast<float>(2.0 / (2 + 0.3f));
  EXPECT_EQ(w, (std::vector<float>{k_factor, 1.0f, k_factor, static_cast<float>(1.0 / 2.3f)}));
  DartParam forest_param = Dart(0.5f);
  forest_param.normalize_type = DartNormalize::kForest;
  DartDropout forest(forest_param, 0);
  std::vector<float> f = {1.0f, 1.0f};
  forest.Commit({1}, 3, 0.3f, &f);  // three classes: eta / 3 each; 1 / (1 + lr) everywhere
  const float ff = static_cast<float>(1.0 / (1.0 + 0.1f));
  EXPECT_EQ(f, (std::vector<float>{1.0f, ff, ff, ff, ff}));
  std::vector<float> none = {0.5f};
  tree.Commit({}, 2, 0.3f, &none);
  EXPECT_EQ(none, (std::vector<float>{0.5f, 1.0f, 1.0f}));
}

// Rank 0's model after `rounds` rounds on `world` thread ranks, each with its shard.
GBTreeModel TrainOnRanks(Params params, const data::DMatrix& all, int world, int rounds) {
  params.emplace_back("tree_method", "hist");
  params.emplace_back("nthread", "1");
  std::vector<data::DMatrix> shards = testing::ContiguousShards(all, world);
  std::vector<std::string> json(static_cast<std::size_t>(world));
  treering::testing::ThreadWorld(world).Run([&](int rank, rabit::Comm* comm) {
    auto learner = test::CreateWithKeys<GBTreeLearner>(params, comm);
    ASSERT_TRUE(learner.ok()) << learner.status().message();
    ASSERT_TRUE(learner.value()->SetTrainData(&shards[rank]).ok());
    for (int i = 0; i < rounds; ++i) ASSERT_TRUE(learner.value()->UpdateOneIter(i).ok());
    auto text = ModelToJson(learner.value()->Model());
    ASSERT_TRUE(text.ok());
    json[rank] = text.value();
  });
  for (int r = 1; r < world; ++r) EXPECT_EQ(json[r], json[0]) << "rank " << r;
  auto model = ModelFromJson(json[0], "rank 0");
  EXPECT_TRUE(model.ok());
  return model.ok() ? model.value() : GBTreeModel{};
}

data::DMatrix RegressionData(bool weights) {
  testing::SyntheticSpec spec;
  spec.task = testing::Task::kRegression;
  spec.rows = 900;
  spec.features = 4;
  spec.missing = 0.0;
  spec.distinct_values = 12;
  spec.weights = weights;
  return testing::MakeSynthetic(spec);
}

TEST(DartRanks, NWorkersEqualOneProcess) {
  const data::DMatrix all = RegressionData(false);
  const Params params = {{"booster", "dart"},
                         {"rate_drop", "0.3"},
                         {"one_drop", "1"},
                         {"max_depth", "3"},
                         {"seed", "5"}};
  const GBTreeModel one = TrainOnRanks(params, all, 1, 8);
  ASSERT_EQ(one.weight_drop.size(), 8u);
  EXPECT_NE(one.weight_drop, std::vector<float>(8, 1.0f));  // something was dropped
  for (int world : {2, 3}) {
    const GBTreeModel many = TrainOnRanks(params, all, world, 8);
    EXPECT_EQ(many.weight_drop, one.weight_drop) << "world " << world;
    ASSERT_EQ(many.trees.size(), one.trees.size());
    for (std::size_t t = 0; t < one.trees.size(); ++t) {
      EXPECT_EQ(many.trees[t].split_cond, one.trees[t].split_cond) << "world " << world;
    }
  }
}

std::vector<float> Dense(const data::DMatrix& dm, std::size_t row) {
  std::vector<float> f(dm.num_col, std::numeric_limits<float>::quiet_NaN());
  for (std::uint64_t k = dm.row_ptr[row]; k < dm.row_ptr[row + 1]; ++k)
    f[dm.index[k]] = dm.value[k];
  return f;
}

// The rule computed here from the shards and the first tree's structure: weighted, 1.7's
// (means over ranks of the ranks' medians); unweighted, the medians of all rows (issue 34:
// one process's values, whatever the world), i.e. 1.7's rule over one shard of every row.
void ExpectAbsoluteErrorRule(bool weights, int world) {
  SCOPED_TRACE("world " + std::to_string(world) + (weights ? " weighted" : ""));
  const data::DMatrix all = RegressionData(weights);
  const GBTreeModel model =
      TrainOnRanks({{"objective", "reg:absoluteerror"}, {"max_depth", "2"}}, all, world, 1);
  ASSERT_EQ(model.trees.size(), 1u);
  const std::vector<data::DMatrix> shards = testing::ContiguousShards(all, weights ? world : 1);
  float median_times_w = 0.0f;
  double w_sum = 0.0;
  for (const data::DMatrix& s : shards) {
    double w = 0.0;
    for (std::size_t i = 0; i < s.NumRows(); ++i) w += s.weight.empty() ? 1.0 : s.weight[i];
    const float m =
        weights ? WeightedQuantile(0.5, s.label, s.weight) : InterpolatedQuantile(0.5, s.label);
    median_times_w += static_cast<float>(m * w);
    w_sum += w;
  }
  const float base = static_cast<float>(median_times_w / w_sum);
  EXPECT_NEAR(model.base_score, base, 1e-6f * std::max(1.0f, std::fabs(base)));
  const RegTree& tree = model.trees[0];
  for (int leaf = 0; leaf < tree.NumNodes(); ++leaf) {
    if (!tree.IsLeaf(leaf)) continue;
    float sum = 0.0f;
    int ranks = 0;
    for (const data::DMatrix& s : shards) {
      std::vector<float> residuals, w;
      for (std::size_t i = 0; i < s.NumRows(); ++i) {
        if (LeafOf(tree, Dense(s, i)) != leaf) continue;
        residuals.push_back(s.label[i] - model.base_score);
        if (weights) w.push_back(s.weight[i]);
      }
      if (residuals.empty()) continue;
      sum += weights ? WeightedQuantile(0.5, residuals, w) : InterpolatedQuantile(0.5, residuals);
      ++ranks;
    }
    ASSERT_GT(ranks, 0);
    EXPECT_NEAR(tree.split_cond[leaf], sum / ranks, 1e-5f) << "leaf " << leaf;
  }
}

TEST(AbsoluteErrorRanks, LeavesAreGlobalOrMeansOfRankMedians) {
  for (bool weights : {false, true}) {
    for (int world : {1, 2, 3}) ExpectAbsoluteErrorRule(weights, world);
  }
}

TEST(LeafQuantiles, XgboostFormulas) {
  // common::Quantile: NIST linear interpolation at alpha * (n + 1)
  EXPECT_FLOAT_EQ(InterpolatedQuantile(0.5, {3.0f, 1.0f, 2.0f}), 2.0f);
  EXPECT_FLOAT_EQ(InterpolatedQuantile(0.5, {4.0f, 1.0f, 2.0f, 3.0f}), 2.5f);
  EXPECT_FLOAT_EQ(InterpolatedQuantile(0.1, {4.0f, 1.0f}), 1.0f);  // below 1 / (n + 1)
  EXPECT_TRUE(std::isnan(InterpolatedQuantile(0.5, {})));
  // common::WeightedQuantile: the first value whose running weight reaches half the total
  EXPECT_FLOAT_EQ(WeightedQuantile(0.5, {1.0f, 2.0f, 3.0f}, {1.0f, 1.0f, 5.0f}), 3.0f);
  EXPECT_FLOAT_EQ(WeightedQuantile(0.5, {1.0f, 2.0f, 3.0f}, {3.0f, 1.0f, 2.0f}), 1.0f);
}

}  // namespace
}  // namespace treering::booster
