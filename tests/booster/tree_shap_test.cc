// The explanation outputs of the tree learner (booster/tree_shap.h, leaf_index.h,
// feature_importance.h) against what they must equal: SHAP's local accuracy (contributions sum
// to the margin), interaction rows summing to the contributions, leaf ids that walk to the
// margin, and hand-computed values for small hand-made trees. Equality with python3-xgboost is
// tests/cli/xgboost_explain_test.py.
#include "booster/tree/predict/tree_shap.h"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "booster/tree/learner/gbtree_learner.h"
#include "booster/tree/predict/feature_importance.h"
#include "booster/tree/predict/leaf_index.h"
#include "context_keys.h"
#include "synthetic_data.h"

namespace treering::booster {
namespace {

using Params = std::vector<std::pair<std::string, std::string>>;
using testing::MakeSynthetic;
using testing::SyntheticSpec;

struct Case {
  testing::Task task;
  Params params;
};

std::vector<Case> Cases() {
  return {{testing::Task::kBinary, {{"objective", "binary:logistic"}}},
          {testing::Task::kRegression, {{"objective", "reg:squarederror"}}},
          {testing::Task::kMulticlass3, {{"objective", "multi:softprob"}, {"num_class", "3"}}}};
}

std::unique_ptr<GBTreeLearner> Train(Params params, data::DMatrix& dm, int rounds) {
  params.push_back({"max_depth", "5"});
  params.push_back({"nthread", "2"});
  auto learner = test::CreateWithKeys<GBTreeLearner>(params, &rabit::DefaultComm());
  EXPECT_TRUE(learner.ok()) << learner.status().message();
  EXPECT_TRUE(learner.value()->SetTrainData(&dm).ok());
  for (int i = 0; i < rounds; ++i) EXPECT_TRUE(learner.value()->UpdateOneIter(i).ok());
  return std::move(learner).value();
}

std::vector<float> Explain(const GBTreeLearner& learner, data::DMatrix& dm, PredictOutput output,
                           bool approx = false, int iteration_end = 0) {
  PredictOptions options;
  options.output_margin = true;
  options.output = output;
  options.approx_contribs = approx;
  options.iteration_end = iteration_end;
  std::vector<float> out;
  Status st = learner.Predict(&dm, options, &out);
  EXPECT_TRUE(st.ok()) << st.message();
  return out;
}

// Each (row, class) block of `width` values sums to that row's margin of that class.
void ExpectSumsToMargins(const std::vector<float>& blocks, const std::vector<float>& margins,
                         std::size_t width, const std::string& what) {
  ASSERT_EQ(blocks.size(), margins.size() * width) << what;
  for (std::size_t i = 0; i < margins.size(); ++i) {
    double sum = 0;
    for (std::size_t k = 0; k < width; ++k) sum += blocks[i * width + k];
    ASSERT_NEAR(sum, margins[i], 1e-4 * (1 + std::fabs(margins[i]))) << what << " block " << i;
  }
}

TEST(TreeShap, ContributionsSumToTheMargin) {
  for (const Case& c : Cases()) {
    data::DMatrix dm = MakeSynthetic({.task = c.task, .rows = 600, .missing = 0.2});
    auto learner = Train(c.params, dm, 12);
    const std::size_t width = learner->Model().num_feature + 1;
    const auto margins = Explain(*learner, dm, PredictOutput::kValue);
    ExpectSumsToMargins(Explain(*learner, dm, PredictOutput::kContribs), margins, width, "exact");
    ExpectSumsToMargins(Explain(*learner, dm, PredictOutput::kContribs, true), margins, width,
                        "approx");
    // Rounds [0, 5) only: the margin of those rounds.
    ExpectSumsToMargins(Explain(*learner, dm, PredictOutput::kContribs, false, 5),
                        Explain(*learner, dm, PredictOutput::kValue, false, 5), width, "5 rounds");
  }
}

TEST(TreeShap, InteractionRowsSumToContributions) {
  for (const Case& c : Cases()) {
    data::DMatrix dm = MakeSynthetic({.task = c.task, .rows = 80, .missing = 0.2});
    auto learner = Train(c.params, dm, 6);
    const std::size_t width = learner->Model().num_feature + 1;
    const auto contribs = Explain(*learner, dm, PredictOutput::kContribs);
    const auto interactions = Explain(*learner, dm, PredictOutput::kInteractions);
    ExpectSumsToMargins(interactions, contribs, width, "interaction rows");
    // Symmetric off the diagonal.
    for (std::size_t b = 0; b < interactions.size() / (width * width); ++b) {
      const float* m = interactions.data() + b * width * width;
      for (std::size_t i = 0; i < width; ++i) {
        for (std::size_t k = 0; k < i; ++k) {
          ASSERT_NEAR(m[i * width + k], m[k * width + i], 1e-5) << b << " " << i << " " << k;
        }
      }
    }
  }
}

TEST(TreeShap, SameResultOnOneThreadAndTwo) {
  data::DMatrix dm = MakeSynthetic({.task = testing::Task::kBinary, .rows = 3000});
  auto two = Train({{"objective", "binary:logistic"}}, dm, 8);
  auto one = Train({{"objective", "binary:logistic"}, {"nthread", "1"}}, dm, 8);
  EXPECT_EQ(Explain(*two, dm, PredictOutput::kContribs),
            Explain(*one, dm, PredictOutput::kContribs));
}

TEST(LeafIndex, LeavesAddUpToTheMargin) {
  for (const Case& c : Cases()) {
    data::DMatrix dm = MakeSynthetic({.task = c.task, .rows = 400, .missing = 0.2});
    auto learner = Train(c.params, dm, 7);
    const GBTreeModel& model = learner->Model();
    const auto leaves = Explain(*learner, dm, PredictOutput::kLeaf);
    const auto margins = Explain(*learner, dm, PredictOutput::kValue);
    const std::size_t trees = model.trees.size(), groups = model.NumGroups();
    ASSERT_EQ(leaves.size(), dm.NumRows() * trees);
    const float base = margins[0] - [&] {  // row 0's margin minus its leaves: the base margin
      float s = 0;
      for (std::size_t t = 0; t < trees; ++t) {
        if (model.tree_info[t] == 0) s += model.trees[t].split_cond[int(leaves[t])];
      }
      return s;
    }();
    for (std::size_t r = 0; r < dm.NumRows(); ++r) {
      std::vector<double> sum(groups, base);
      for (std::size_t t = 0; t < trees; ++t) {
        const int leaf = static_cast<int>(leaves[r * trees + t]);
        ASSERT_TRUE(model.trees[t].IsLeaf(leaf)) << r << " " << t;
        sum[model.tree_info[t]] += model.trees[t].split_cond[leaf];
      }
      for (std::size_t g = 0; g < groups; ++g) {
        ASSERT_NEAR(sum[g], margins[r * groups + g], 1e-4) << r << " " << g;
      }
    }
  }
}

// One split on feature 0 at 0.5: left leaf 1.0 (cover 4), right leaf -1.0 (cover 6), mean -0.2.
GBTreeModel Stump() {
  GBTreeModel model;
  model.num_feature = 2;
  RegTree tree;
  tree.AddNode(-1, 0.0f, 0.0f, 10.0f);
  tree.AddNode(0, 1.0f, 0.0f, 4.0f);
  tree.AddNode(0, -1.0f, 0.0f, 6.0f);
  tree.left[0] = 1;
  tree.right[0] = 2;
  tree.split_index[0] = 0;
  tree.split_cond[0] = 0.5f;
  tree.default_left[0] = 1;
  tree.loss_change[0] = 3.0f;
  model.trees = {tree, tree};
  model.trees[1].split_index[0] = 1;
  model.trees[1].loss_change[0] = 5.0f;
  model.tree_info = {0, 0};
  return model;
}

TEST(TreeShap, StumpByHand) {
  GBTreeModel model = Stump();
  model.trees.resize(1);
  model.tree_info.resize(1);
  data::DMatrix dm;  // row 0: f0 = 0 (left); row 1: f0 missing (default left); row 2: f0 = 2
  dm.index = {0, 1, 0};
  dm.value = {0.0f, 7.0f, 2.0f};
  dm.row_ptr = {0, 1, 2, 3};
  dm.num_col = 2;
  std::vector<float> out;
  ASSERT_TRUE(PredictContributions(model, dm, {1, false, 0.5f, 1}, &out).ok());
  const std::vector<float> expected = {1.2f, 0, 0.3f, 1.2f, 0, 0.3f, -0.8f, 0, 0.3f};
  ASSERT_EQ(out.size(), expected.size());
  for (std::size_t i = 0; i < out.size(); ++i) EXPECT_NEAR(out[i], expected[i], 1e-6) << i;
  std::vector<float> leaves;
  PredictLeafIndices(model, dm, 1, 1, &leaves);
  EXPECT_EQ(leaves, (std::vector<float>{1, 1, 2}));
}

TEST(FeatureImportance, FiveTypesByHand) {
  const GBTreeModel model = Stump();  // one split on f0 (gain 3), one on f1 (gain 5), cover 10
  auto check = [&](const std::string& type, float f0, float f1) {
    auto scores = ComputeFeatureImportance(model, type);
    ASSERT_TRUE(scores.ok());
    ASSERT_EQ(scores->size(), 2u) << type;
    EXPECT_EQ((*scores)[0].feature, 0u);
    EXPECT_FLOAT_EQ((*scores)[0].score, f0) << type;
    EXPECT_FLOAT_EQ((*scores)[1].score, f1) << type;
  };
  check("weight", 1, 1);
  check("gain", 3, 5);
  check("total_gain", 3, 5);
  check("cover", 10, 10);
  check("total_cover", 10, 10);
  EXPECT_FALSE(ComputeFeatureImportance(model, "entropy").ok());
}

}  // namespace
}  // namespace treering::booster
