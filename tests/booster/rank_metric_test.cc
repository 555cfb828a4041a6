// Ranking metrics and LambdaRank gradients on small groups, against values computed here from
// XGBoost 1.7's formulas (tests/booster/rank_peer_test.py checks them against XGBoost itself),
// and the query group file reader.
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "booster/metric.h"
#include "booster/objective.h"
#include "data/query_groups.h"
#include "rabit/comm.h"

namespace treering::booster {
namespace {

struct Groups {
  std::vector<float> preds, labels, weights;
  std::vector<std::uint64_t> ptr{0};
  void Add(std::vector<float> p, std::vector<float> y) {
    preds.insert(preds.end(), p.begin(), p.end());
    labels.insert(labels.end(), y.begin(), y.end());
    ptr.push_back(labels.size());
  }
  LabelView View() const { return {&labels, &weights, &ptr, 0}; }
};

double Eval(const std::string& name, const Groups& g) {
  auto metric = Metric::Create(name);
  EXPECT_TRUE(metric.ok()) << name;
  auto v =
      metric.value()->Evaluate(g.preds, 1, g.View(), Context{.nthread = 1}, rabit::DefaultComm());
  EXPECT_TRUE(v.ok()) << name;
  return v.value();
}

double Gain(int rel, int pos) { return ((1 << rel) - 1) / std::log2(pos + 2.0); }

TEST(RankMetric, NdcgMapPrecisionOfOneGroup) {
  Groups g;
  g.Add({3, 2, 1, 0}, {0, 1, 2, 0});  // ranked: rel 0, 1, 2, 0
  const double dcg = Gain(1, 1) + Gain(2, 2);
  const double idcg = Gain(2, 0) + Gain(1, 1);
  EXPECT_NEAR(Eval("ndcg", g), dcg / idcg, 1e-12);
  EXPECT_NEAR(Eval("ndcg@2", g), Gain(1, 1) / idcg, 1e-12);
  EXPECT_NEAR(Eval("map", g), (1.0 / 2 + 2.0 / 3) / 2, 1e-12);
  // map@k sums the precisions of hits within the top k but divides by all hits.
  EXPECT_NEAR(Eval("map@2", g), (1.0 / 2) / 2, 1e-12);
  EXPECT_NEAR(Eval("pre@2", g), 1.0 / 2, 1e-12);
  EXPECT_NEAR(Eval("pre@8", g), 2.0 / 8, 1e-12);  // divides by k even past the group's end
}

TEST(RankMetric, TiesKeepTheInputOrder) {
  Groups g;
  g.Add({1, 1}, {0, 1});  // equal predictions: stable order, the relevant document second
  EXPECT_NEAR(Eval("ndcg", g), Gain(1, 1) / Gain(1, 0), 1e-12);
  EXPECT_NEAR(Eval("map", g), 0.5, 1e-12);
}

TEST(RankMetric, GroupsWithoutRelevantDocumentsAndTheMinusForm) {
  Groups g;
  g.Add({1, 2}, {0, 0});
  g.Add({2, 1}, {1, 0});  // a perfect ranking: 1 for every metric
  EXPECT_NEAR(Eval("ndcg", g), 1.0, 1e-12);
  EXPECT_NEAR(Eval("ndcg-", g), 0.5, 1e-12);
  EXPECT_NEAR(Eval("ndcg@1-", g), 0.5, 1e-12);
  EXPECT_NEAR(Eval("map", g), 1.0, 1e-12);
  EXPECT_NEAR(Eval("map-", g), 0.5, 1e-12);
  EXPECT_NEAR(Eval("map@1-", g), 0.5, 1e-12);
}

TEST(RankMetric, LabelsPast30DoNotOverflowTheGain) {
  Groups g;  // XGBoost's int shift is undefined here; the double gain stays exact
  g.Add({1, 2}, {40, 0});
  EXPECT_NEAR(Eval("ndcg", g), 1.0 / std::log2(3.0), 1e-12);
}

TEST(RankMetric, NamesAndDirection) {
  for (const std::string good :
       {"ndcg", "ndcg@3", "ndcg-", "ndcg@3-", "map", "map@10", "map-", "pre@5", "pre"}) {
    auto m = Metric::Create(good);
    ASSERT_TRUE(m.ok()) << good;
    EXPECT_EQ(m.value()->Name(), good);
    EXPECT_TRUE(Metric::Maximised(good)) << good;
  }
  for (const std::string bad : {"ndcg@", "ndcg@x", "map@-3", "pre@3x", "ndcgx"}) {
    EXPECT_FALSE(Metric::Create(bad).ok()) << bad;
  }
  EXPECT_FALSE(Metric::Maximised("mape"));
}

TEST(RankObjective, TwoDocumentGroupGradient) {
  Groups g;
  g.Add({0, 0}, {1, 0});
  for (const std::string name : {"rank:pairwise", "rank:ndcg", "rank:map"}) {
    auto obj = Objective::Create({.name = name});
    ASSERT_TRUE(obj.ok()) << name;
    std::vector<GradientPair> out;
    obj.value()->GetGradient(g.preds, g.View(), Context{.nthread = 1}, &out);
    // Each document draws the other once: two pairs (1 over 0), sigmoid(0) = 0.5, both of
    // weighted by what a swap costs: 1 for pairwise, |delta NDCG| = 1 - 1/log2(3), |delta
    // AP| = 1 - 1/2.
    float w = 1.0f;
    if (name == "rank:ndcg") w = 1.0f - 1.0f / std::log2(3.0f);
    if (name == "rank:map") w = 0.5f;
    EXPECT_NEAR(out[0].grad, 2 * -0.5f * w, 1e-6) << name;
    EXPECT_NEAR(out[1].grad, 2 * 0.5f * w, 1e-6) << name;
    EXPECT_NEAR(out[0].hess, 2 * 2 * 0.25f * w, 1e-6) << name;
    EXPECT_EQ(obj.value()->DefaultMetric(), "map");
  }
}

TEST(RankObjective, LabelsOutsideTheGainRangeAndWeightsAreRefused) {
  auto obj = Objective::Create({.name = "rank:ndcg"});
  ASSERT_TRUE(obj.ok());
  Groups g;
  g.Add({0, 0}, {1, 31});
  EXPECT_FALSE(obj.value()->CheckLabels(g.View()).ok());
  Groups w;
  w.Add({0, 0}, {1, 0});
  w.weights = {1, 1};
  EXPECT_FALSE(obj.value()->CheckLabels(w.View()).ok());
}

TEST(QueryGroups, RunsOfEqualIdsAndTheGroupFile) {
  EXPECT_EQ(data::GroupsFromIds({7, 7, 3, 3, 3, 9}), (std::vector<std::uint64_t>{0, 2, 5, 6}));
  EXPECT_EQ(data::GroupsFromIds({}), (std::vector<std::uint64_t>{0}));
  const auto dir = std::filesystem::temp_directory_path() /
                   ("treering_rank_metric_test." + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "x.libsvm.group").string();
  std::ofstream(path) << "3\n# comment\n\n12\n";
  auto sizes = data::ReadGroupSizes(path);
  ASSERT_TRUE(sizes.ok()) << sizes.status().message();
  EXPECT_EQ(sizes.value(), (std::vector<std::uint64_t>{3, 12}));
  std::ofstream(path) << "3\n0\n";
  auto bad = data::ReadGroupSizes(path);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find(path + ":2:"), std::string::npos) << bad.status().message();
  std::ofstream(dir / "x.libsvm") << "1 qid:1 0:1\n";
  EXPECT_EQ(data::GroupFilePath((dir / "x.libsvm").string() + "?format=libsvm").value(), path);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace treering::booster
