// treering's trees against XGBoost 1.7's (python3-xgboost, tree_method=hist, nthread=1) on the
// same LibSVM files: identical structure, splits and leaf values, and test margins agreeing to
// float precision. Data use few distinct values so both sides' cuts are exact.
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include <gtest/gtest.h>

#include "booster/model_io.h"
#include "booster/tree/learner/gbtree_learner.h"
#include "context_keys.h"
#include "synthetic_data.h"

namespace treering::booster {
namespace {

using testing::MakeSynthetic;
using testing::SyntheticSpec;
using testing::Task;
using Params = std::vector<std::pair<std::string, std::string>>;

struct PeerCase {
  std::string name;
  SyntheticSpec spec;
  int rounds;
  Params params;
};

void ExpectNear(float ours, float theirs, float rel, const std::string& what) {
  EXPECT_LE(std::fabs(ours - theirs), rel * std::max(1.0f, std::fabs(theirs)))
      << what << ": treering " << ours << " xgboost " << theirs;
}

void ExpectSameTree(const RegTree& a, const RegTree& b, const std::string& where) {
  ASSERT_EQ(a.NumNodes(), b.NumNodes()) << where;
  for (int n = 0; n < a.NumNodes(); ++n) {
    const std::string at = where + " node " + std::to_string(n);
    ASSERT_EQ(a.left[n], b.left[n]) << at;
    ASSERT_EQ(a.right[n], b.right[n]) << at;
    ExpectNear(a.split_cond[n], b.split_cond[n], 1e-5f, at + " split_cond/leaf");
    ExpectNear(a.base_weight[n], b.base_weight[n], 1e-5f, at + " base_weight");
    ExpectNear(a.sum_hess[n], b.sum_hess[n], 1e-5f, at + " sum_hess");
    if (a.IsLeaf(n)) continue;
    EXPECT_EQ(a.split_index[n], b.split_index[n]) << at;
    EXPECT_EQ(a.default_left[n], b.default_left[n]) << at;
    // loss_change is a float difference of two larger float gains, so one ulp of those
    // (XGBoost sums in double in another order) shows up here as ~1e-4 relative.
    ExpectNear(a.loss_change[n], b.loss_change[n], 1e-3f, at + " loss_change");
  }
}

std::vector<EvalResult> ReadEval(const std::string& path) {
  std::ifstream in(path);
  std::vector<EvalResult> v;
  for (EvalResult r; in >> r.name >> r.value;) v.push_back(r);
  return v;
}

std::vector<float> ReadFloats(const std::string& path) {
  std::ifstream in(path);
  std::vector<float> v;
  for (float x; in >> x;) v.push_back(x);
  return v;
}

void PrintTo(const PeerCase& c, std::ostream* os) { *os << c.name; }

class XgboostPeerTest : public ::testing::TestWithParam<PeerCase> {};

TEST_P(XgboostPeerTest, SameTreesAndMargins) {
  const PeerCase& c = GetParam();
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("treering-booster-peer-" + c.name);
  std::filesystem::remove_all(dir);  // never compare against a previous run's outputs
  std::filesystem::create_directories(dir);
  data::DMatrix train = MakeSynthetic(c.spec);
  SyntheticSpec test_spec = c.spec;
  test_spec.rows = 500;
  test_spec.seed += 100;
  data::DMatrix test = MakeSynthetic(test_spec);
  testing::WriteLibSvm(train, dir / "train.libsvm");
  testing::WriteLibSvm(test, dir / "test.libsvm");

  std::string cmd = std::string("/usr/bin/python3 ") + XGB_REFERENCE_SCRIPT + " " + dir.string() +
                    " " + std::to_string(c.rounds);
  for (const auto& [k, v] : c.params) cmd += " '" + k + "=" + v + "'";  // "(1,0)" etc.
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  auto theirs = LoadModelJson(dir / "xgb-model.json");
  ASSERT_TRUE(theirs.ok()) << theirs.status().message();

  Params params = c.params;
  params.emplace_back("nthread", "1");
  params.emplace_back("tree_method", "hist");  // the reference script's; unset would be exact
  auto learner = test::CreateWithKeys<GBTreeLearner>(params, &rabit::DefaultComm());
  ASSERT_TRUE(learner.ok()) << learner.status().message();
  ASSERT_TRUE((*learner)->SetTrainData(&train).ok());
  ASSERT_TRUE((*learner)->AddEvalSet("test", &test).ok());
  for (int i = 0; i < c.rounds; ++i) ASSERT_TRUE((*learner)->UpdateOneIter(i).ok());

  // Metric names (defaults included) and values as XGBoost prints them.
  auto evals = (*learner)->EvalOneIter(c.rounds - 1);
  ASSERT_TRUE(evals.ok()) << evals.status().message();
  const std::vector<EvalResult> want_evals = ReadEval(dir / "xgb-eval.txt");
  ASSERT_EQ(evals->size(), want_evals.size());
  for (std::size_t i = 0; i < want_evals.size(); ++i) {
    EXPECT_EQ((*evals)[i].name, want_evals[i].name);
    EXPECT_NEAR((*evals)[i].value, want_evals[i].value,
                1e-5 * std::max(1.0, std::fabs(want_evals[i].value)))
        << want_evals[i].name;
  }

  const GBTreeModel& ours = (*learner)->Model();
  ASSERT_EQ(ours.trees.size(), theirs->trees.size());
  EXPECT_EQ(ours.tree_info, theirs->tree_info);
  for (std::size_t t = 0; t < ours.trees.size(); ++t) {
    ExpectSameTree(ours.trees[t], theirs->trees[t], c.name + " tree " + std::to_string(t));
  }
  std::vector<float> margin;
  ASSERT_TRUE((*learner)->Predict(&test, {.output_margin = true}, &margin).ok());
  const std::vector<float> want = ReadFloats(dir / "xgb-margin.txt");
  ASSERT_EQ(margin.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    ExpectNear(margin[i], want[i], 1e-5f, "margin " + std::to_string(i));
  }
}

// The most distinct split features of any tree (bylevel = false) or any level of a tree.
std::size_t MostFeatures(const GBTreeModel& model, bool bylevel) {
  std::size_t most = 0;
  for (const RegTree& tree : model.trees) {
    std::vector<std::set<std::uint32_t>> levels;
    std::vector<std::pair<int, std::size_t>> stack = {{0, 0}};
    while (!stack.empty()) {
      const auto [n, depth] = stack.back();
      stack.pop_back();
      if (tree.IsLeaf(n)) continue;
      levels.resize(std::max(levels.size(), bylevel ? depth + 1 : 1));
      levels[bylevel ? depth : 0].insert(tree.split_index[n]);
      stack.push_back({tree.left[n], depth + 1});
      stack.push_back({tree.right[n], depth + 1});
    }
    for (const auto& l : levels) most = std::max(most, l.size());
  }
  return most;
}

// XGBoost's draws cannot be reproduced, but its set sizes can: with colsample_bytree 0.35 of
// 10 features (3) and bylevel 0.5 of 8 (4 of the tree's 8), the most features any tree (level)
// of either model splits on is that count, on both sides.
TEST(XgboostPeerSampler, SameFeatureCountsPerTreeAndLevel) {
  SyntheticSpec spec;
  spec.task = Task::kRegression;
  spec.features = 10;
  spec.missing = 0.0;
  data::DMatrix train = MakeSynthetic(spec);
  struct Case {
    Params params;
    bool bylevel;
    std::size_t want;
  };
  for (const Case& c :
       {Case{{{"colsample_bytree", "0.35"}}, false, 3},
        Case{{{"colsample_bytree", "0.8"}, {"colsample_bylevel", "0.5"}}, true, 4}}) {
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / "treering-booster-peer-sampler";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    testing::WriteLibSvm(train, dir / "train.libsvm");
    testing::WriteLibSvm(train, dir / "test.libsvm");
    Params params = c.params;
    params.emplace_back("max_depth", "5");
    std::string cmd =
        std::string("/usr/bin/python3 ") + XGB_REFERENCE_SCRIPT + " " + dir.string() + " 20";
    for (const auto& [k, v] : params) cmd += " '" + k + "=" + v + "'";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    auto theirs = LoadModelJson(dir / "xgb-model.json");
    ASSERT_TRUE(theirs.ok()) << theirs.status().message();
    params.emplace_back("nthread", "1");
    auto learner = test::CreateWithKeys<GBTreeLearner>(params, &rabit::DefaultComm());
    ASSERT_TRUE(learner.ok()) << learner.status().message();
    ASSERT_TRUE((*learner)->SetTrainData(&train).ok());
    for (int i = 0; i < 20; ++i) ASSERT_TRUE((*learner)->UpdateOneIter(i).ok());
    EXPECT_EQ(MostFeatures(*theirs, c.bylevel), c.want) << "xgboost";
    EXPECT_EQ(MostFeatures((*learner)->Model(), c.bylevel), c.want) << "treering";
  }
}

SyntheticSpec Spec(Task task, bool weights = false, double missing = 0.1) {
  SyntheticSpec s;
  s.task = task;
  s.weights = weights;
  s.missing = missing;
  return s;
}

INSTANTIATE_TEST_SUITE_P(
    Objectives, XgboostPeerTest,
    ::testing::Values(
        PeerCase{"binary",
                 Spec(Task::kBinary),
                 5,
                 {{"objective", "binary:logistic"},
                  {"max_depth", "3"},
                  {"eval_metric", "auc"},
                  {"eval_metric", "logloss"},
                  {"eval_metric", "error"}}},
        PeerCase{"dense_depth6",
                 Spec(Task::kRegression, false, 0.0),
                 4,
                 {{"max_depth", "6"}, {"eval_metric", "rmse"}}},
        PeerCase{"regression_regularised",
                 Spec(Task::kRegression, true),
                 5,
                 {{"objective", "reg:squarederror"},
                  {"max_depth", "4"},
                  {"lambda", "2"},
                  {"alpha", "0.5"},
                  {"gamma", "0.5"},
                  {"min_child_weight", "3"},
                  {"eta", "0.1"},
                  {"eval_metric", "rmse"},
                  {"eval_metric", "mae"}}},
        PeerCase{"multiclass",
                 Spec(Task::kMulticlass3),
                 3,
                 {{"objective", "multi:softprob"},
                  {"num_class", "3"},
                  {"max_depth", "3"},
                  {"eval_metric", "merror"},
                  {"eval_metric", "mlogloss"}}},
        PeerCase{"lossguide",
                 Spec(Task::kBinary),
                 3,
                 {{"objective", "binary:logistic"},
                  {"grow_policy", "lossguide"},
                  {"max_leaves", "6"},
                  {"max_depth", "0"}}},
        PeerCase{
            "poisson", Spec(Task::kCount), 3, {{"objective", "count:poisson"}, {"max_depth", "3"}}},
        PeerCase{"max_delta_step",
                 Spec(Task::kBinary, true),
                 3,
                 {{"objective", "binary:logistic"},
                  {"max_depth", "3"},
                  {"max_delta_step", "0.3"},
                  {"base_score", "0.3"},
                  {"eval_metric", "error@0.7"},
                  {"eval_metric", "auc"}}},
        // Bounds reach the leaves only below depth 1: deep trees, many rounds.
        PeerCase{
            "monotone",
            Spec(Task::kRegression),
            6,
            {{"max_depth", "5"}, {"monotone_constraints", "(1,0,-1,1)"}, {"eval_metric", "rmse"}}},
        PeerCase{"monotone_binary_delta",
                 Spec(Task::kBinary, true),
                 4,
                 {{"objective", "binary:logistic"},
                  {"max_depth", "4"},
                  {"max_delta_step", "0.5"},
                  {"monotone_constraints", "(-1,1,0,0,1,-1)"}}},
        PeerCase{"monotone_lossguide",
                 Spec(Task::kRegression, false, 0.0),
                 4,
                 {{"grow_policy", "lossguide"},
                  {"max_leaves", "12"},
                  {"max_depth", "0"},
                  {"monotone_constraints", "(0,1,-1)"}}},
        // Feature 5 is in no group: a path starting there stays on it.
        PeerCase{"interaction",
                 Spec(Task::kRegression),
                 5,
                 {{"max_depth", "5"},
                  {"interaction_constraints", "[[0,1],[2,3,4]]"},
                  {"eval_metric", "rmse"}}},
        PeerCase{"interaction_monotone_lossguide",
                 Spec(Task::kBinary),
                 4,
                 {{"objective", "binary:logistic"},
                  {"grow_policy", "lossguide"},
                  {"max_leaves", "10"},
                  {"max_depth", "0"},
                  {"monotone_constraints", "(1,0,0,-1)"},
                  {"interaction_constraints", "[[0,2],[1,3,5],[0,4]]"}}},
        // Issue 17 item 2: the other objectives, each with its default metric
        // (XGBoost's name included) and the metrics that suit its labels.
        PeerCase{"squaredlogerror",
                 Spec(Task::kPositive, true),
                 4,
                 {{"objective", "reg:squaredlogerror"},
                  {"max_depth", "3"},
                  {"eval_metric", "rmsle"},
                  {"eval_metric", "mape"}}},
        PeerCase{"pseudohuber",
                 Spec(Task::kRegression, true),
                 4,
                 {{"objective", "reg:pseudohubererror"}, {"huber_slope", "2"}, {"max_depth", "3"}}},
        PeerCase{"pseudohuber_metrics",
                 Spec(Task::kRegression),
                 3,
                 {{"objective", "reg:pseudohubererror"},
                  {"huber_slope", "2"},
                  {"max_depth", "3"},
                  {"eval_metric", "mphe"},
                  {"eval_metric", "mae"}}},
        PeerCase{"gamma",
                 Spec(Task::kPositive, true),
                 4,
                 {{"objective", "reg:gamma"},
                  {"max_depth", "3"},
                  {"base_score", "1.5"},
                  {"eval_metric", "gamma-nloglik"},
                  {"eval_metric", "gamma-deviance"}}},
        PeerCase{
            "tweedie",
            Spec(Task::kCount),
            4,
            {{"objective", "reg:tweedie"}, {"tweedie_variance_power", "1.3"}, {"max_depth", "3"}}},
        PeerCase{"tweedie_metrics",
                 Spec(Task::kCount, true),
                 3,
                 {{"objective", "reg:tweedie"},
                  {"max_depth", "3"},
                  {"eval_metric", "tweedie-nloglik@1.7"},
                  {"eval_metric", "poisson-nloglik"}}},
        PeerCase{"hinge",
                 Spec(Task::kBinary, true),
                 4,
                 {{"objective", "binary:hinge"},
                  {"max_depth", "3"},
                  {"eval_metric", "error"},
                  {"eval_metric", "aucpr"}}},
        PeerCase{"aucpr",
                 Spec(Task::kBinary, true),
                 3,
                 {{"objective", "binary:logistic"}, {"max_depth", "3"}, {"eval_metric", "aucpr"}}},
        PeerCase{"multiclass_auc",
                 Spec(Task::kMulticlass3, true),
                 3,
                 {{"objective", "multi:softprob"},
                  {"num_class", "3"},
                  {"max_depth", "3"},
                  {"eval_metric", "auc"},
                  {"eval_metric", "aucpr"}}},
        PeerCase{"cox",
                 Spec(Task::kSurvival, true),
                 4,
                 {{"objective", "survival:cox"}, {"max_depth", "3"}}}),
    [](const ::testing::TestParamInfo<PeerCase>& info) { return info.param.name; });

}  // namespace
}  // namespace treering::booster
