// interaction_constraints: every root-to-leaf path of every tree splits only on features of one
// allowed group (or on one feature outside every group, as XGBoost 1.7 allows). The same data
// without the constraint has paths that mix groups, so an ignored constraint fails here.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "booster/tree/learner/gbtree_learner.h"
#include "context_keys.h"
#include "synthetic_data.h"

namespace treering::booster {
namespace {

using Params = std::vector<std::pair<std::string, std::string>>;
using FeatureSet = std::set<std::uint32_t>;

GBTreeModel Train(const Params& extra) {
  testing::SyntheticSpec spec;
  spec.task = testing::Task::kRegression;
  spec.features = 6;
  spec.rows = 2000;
  data::DMatrix train = testing::MakeSynthetic(spec);
  Params params = {{"max_depth", "6"}, {"nthread", "1"}, {"colsample_bynode", "0.8"}};
  params.insert(params.end(), extra.begin(), extra.end());
  auto learner = test::CreateWithKeys<GBTreeLearner>(params, &rabit::DefaultComm());
  EXPECT_TRUE(learner.ok()) << learner.status().message();
  if (!learner.ok()) return {};
  EXPECT_TRUE((*learner)->SetTrainData(&train).ok());
  for (int i = 0; i < 10; ++i) EXPECT_TRUE((*learner)->UpdateOneIter(i).ok());
  return (*learner)->Model();
}

void CollectPaths(const RegTree& tree, int node, FeatureSet path, std::vector<FeatureSet>* out) {
  if (tree.IsLeaf(node)) {
    out->push_back(path);
    return;
  }
  path.insert(tree.split_index[node]);
  CollectPaths(tree, tree.left[node], path, out);
  CollectPaths(tree, tree.right[node], path, out);
}

// Paths whose features fit in no group (a lone feature outside all groups is allowed).
int CountMixedPaths(const GBTreeModel& model, const std::vector<FeatureSet>& groups) {
  int mixed = 0;
  for (const RegTree& tree : model.trees) {
    std::vector<FeatureSet> paths;
    CollectPaths(tree, 0, {}, &paths);
    for (const FeatureSet& p : paths) {
      if (p.size() <= 1) continue;
      const bool fits = std::any_of(groups.begin(), groups.end(), [&](const FeatureSet& g) {
        return std::includes(g.begin(), g.end(), p.begin(), p.end());
      });
      if (!fits) ++mixed;
    }
  }
  return mixed;
}

TEST(InteractionConstraints, NoPathMixesGroups) {
  const std::vector<FeatureSet> groups = {{0, 1}, {2, 3, 4}, {1, 5}};
  for (const char* policy : {"depthwise", "lossguide"}) {
    SCOPED_TRACE(policy);
    Params params = {{"interaction_constraints", "[[0,1],[2,3,4],[1,5]]"}, {"grow_policy", policy}};
    if (std::string(policy) == "lossguide") params.push_back({"max_leaves", "20"});
    const GBTreeModel model = Train(params);
    ASSERT_EQ(model.trees.size(), 10u);
    EXPECT_EQ(CountMixedPaths(model, groups), 0);
    int splits = 0;
    for (const RegTree& tree : model.trees) splits += tree.NumNodes() / 2;
    EXPECT_GT(splits, 100) << "the constraint must still leave trees to check";
  }
  EXPECT_GT(CountMixedPaths(Train({}), groups), 20);
}

TEST(InteractionConstraints, BadValuesAreClearErrors) {
  for (const char* bad : {"[[0,1]", "[0,1]", "[[a]]", "[[1,,2]]", "[[1]] x", "(1,2)", "[[-1]]"}) {
    auto learner = test::CreateWithKeys<GBTreeLearner>({{"interaction_constraints", bad}},
                                                       &rabit::DefaultComm());
    ASSERT_FALSE(learner.ok()) << bad;
    EXPECT_NE(learner.status().message().find("interaction_constraints"), std::string::npos)
        << learner.status().message();
  }
  for (const char* good : {"[]", "[[]]", " [ [0, 1] , [2] ] "}) {
    EXPECT_TRUE(test::CreateWithKeys<GBTreeLearner>({{"interaction_constraints", good}},
                                                    &rabit::DefaultComm())
                    .ok())
        << good;
  }
}

}  // namespace
}  // namespace treering::booster
