// monotone_constraints on random data: the trained model must rise (fall) along every feature
// constrained +1 (-1) wherever the other features sit. Checked by walking every tree on a grid
// of each constrained feature's values for many random rows; the same data trained without the
// constraint breaks the check, so a learner that ignored it would fail here.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "booster/tree/learner/gbtree_learner.h"
#include "context_keys.h"

namespace treering::booster {
namespace {

using Params = std::vector<std::pair<std::string, std::string>>;
constexpr std::uint32_t kFeatures = 4;

// Labels wiggle along every feature (sin terms), so an unconstrained model is not monotone.
data::DMatrix WigglyData(std::size_t rows, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::normal_distribution<float> noise(0.0f, 0.3f);
  data::DMatrix dm;
  dm.num_col = kFeatures;
  for (std::size_t r = 0; r < rows; ++r) {
    float x[kFeatures];
    for (std::uint32_t f = 0; f < kFeatures; ++f) {
      x[f] = u(rng);
      dm.index.push_back(f);
      dm.value.push_back(x[f]);
    }
    dm.row_ptr.push_back(dm.index.size());
    dm.label.push_back(2 * x[0] + std::sin(12 * x[0]) - 2 * x[1] + std::sin(9 * x[1]) +
                       std::sin(10 * x[2]) + x[3] * std::cos(8 * x[3]) + noise(rng));
  }
  return dm;
}

// The model's margin of a dense row (no missing values), summed over trees.
float Margin(const GBTreeModel& model, const std::vector<float>& x) {
  float sum = 0.0f;
  for (const RegTree& tree : model.trees) {
    int n = 0;
    while (!tree.IsLeaf(n)) {
      n = x[tree.split_index[n]] < tree.split_cond[n] ? tree.left[n] : tree.right[n];
    }
    sum += tree.split_cond[n];  // a leaf's value
  }
  return sum;
}

// How many (row, grid step) pairs go against `constraints` along the constrained features.
int CountViolations(const GBTreeModel& model, const std::vector<int>& constraints) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  int violations = 0;
  for (int row = 0; row < 200; ++row) {
    std::vector<float> x(kFeatures);
    for (float& v : x) v = u(rng);
    for (std::uint32_t f = 0; f < constraints.size(); ++f) {
      if (constraints[f] == 0) continue;
      std::vector<float> at = x;
      at[f] = -0.01f;
      float previous = Margin(model, at);
      for (int step = 1; step <= 101; ++step) {
        at[f] = static_cast<float>(step) / 100.0f;
        const float m = Margin(model, at);
        if ((constraints[f] > 0 && m < previous) || (constraints[f] < 0 && m > previous)) {
          ++violations;
        }
        previous = m;
      }
    }
  }
  return violations;
}

GBTreeModel Train(const Params& extra) {
  data::DMatrix train = WigglyData(3000, 5);
  Params params = {{"max_depth", "6"}, {"eta", "0.3"}, {"nthread", "1"}};
  params.insert(params.end(), extra.begin(), extra.end());
  auto learner = test::CreateWithKeys<GBTreeLearner>(params, &rabit::DefaultComm());
  EXPECT_TRUE(learner.ok()) << learner.status().message();
  if (!learner.ok()) return {};
  EXPECT_TRUE((*learner)->SetTrainData(&train).ok());
  for (int i = 0; i < 15; ++i) EXPECT_TRUE((*learner)->UpdateOneIter(i).ok());
  return (*learner)->Model();
}

TEST(MonotoneConstraints, ModelIsMonotoneOnAGrid) {
  const std::vector<int> constraints = {1, -1, 0, 1};
  for (const char* policy : {"depthwise", "lossguide"}) {
    SCOPED_TRACE(policy);
    Params params = {{"monotone_constraints", "(1,-1,0,1)"}, {"grow_policy", policy}};
    if (std::string(policy) == "lossguide") params.push_back({"max_leaves", "24"});
    const GBTreeModel constrained = Train(params);
    ASSERT_EQ(constrained.trees.size(), 15u);
    EXPECT_EQ(CountViolations(constrained, constraints), 0);
  }
  // Without the constraint the same check fails: the data does not make it true by itself.
  EXPECT_GT(CountViolations(Train({}), constraints), 100);
}

TEST(MonotoneConstraints, MaxDeltaStepAndL1KeepTheModelMonotone) {
  const GBTreeModel model = Train({{"monotone_constraints", "(-1,1)"},
                                   {"max_delta_step", "0.2"},
                                   {"alpha", "0.5"},
                                   {"min_child_weight", "5"}});
  EXPECT_EQ(CountViolations(model, {-1, 1}), 0);
}

TEST(MonotoneConstraints, BadValuesAreClearErrors) {
  for (const char* bad : {"(1,2)", "1,0", "(1,,0)", "(a)", "[1,0]"}) {
    auto learner =
        test::CreateWithKeys<GBTreeLearner>({{"monotone_constraints", bad}}, &rabit::DefaultComm());
    ASSERT_FALSE(learner.ok()) << bad;
    EXPECT_NE(learner.status().message().find("monotone_constraints"), std::string::npos)
        << learner.status().message();
  }
  // More constraints than features: XGBoost refuses it, so do we (when the data is known).
  auto learner = test::CreateWithKeys<GBTreeLearner>({{"monotone_constraints", "(1,0,0,0,1)"}},
                                                     &rabit::DefaultComm());
  ASSERT_TRUE(learner.ok());
  data::DMatrix train = WigglyData(50, 1);
  const Status s = (*learner)->SetTrainData(&train);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("5 constraints for 4 features"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace treering::booster
