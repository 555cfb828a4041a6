// The column and row samplers against computed expectations (XGBoost's RNG streams are not
// reproduced, so not its draws): colsample_bytree / bylevel / bynode keep
// max(1, floor(fraction * parent set size)) features (XGBoost 1.7's ColumnSampler), each set
// drawn from its parent's (node from level from tree), and subsample keeps about that fraction
// of the rows per tree. A sampler that did nothing, or drew from all features at every step,
// fails here.
#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "booster/tree/learner/gbtree_learner.h"
#include "booster/tree/split/column_sampler.h"
#include "context_keys.h"
#include "synthetic_data.h"

namespace treering::booster {
namespace {

using Params = std::vector<std::pair<std::string, std::string>>;
using FeatureSet = std::set<std::uint32_t>;

std::size_t Expected(float fraction, std::size_t parent) {
  if (fraction >= 1.0f) return parent;
  return std::max<std::size_t>(1, static_cast<std::size_t>(std::floor(fraction * parent)));
}

TEST(ColumnSampler, SetSizesFollowXgboostFormula) {
  struct Case {
    std::uint32_t features;
    float tree, level, node;
  };
  for (const Case& c : {Case{20, 0.5f, 0.5f, 0.5f}, Case{100, 0.33f, 0.7f, 0.25f},
                        Case{7, 0.1f, 1.0f, 0.9f}, Case{13, 1.0f, 0.3f, 1.0f}}) {
    SCOPED_TRACE(std::to_string(c.features) + " features");
    ColumnSampler sampler(c.features, c.tree, c.level, c.node, 42);
    const std::size_t tree_n = Expected(c.tree, c.features);
    const std::size_t level_n = Expected(c.level, tree_n);
    const std::size_t node_n = Expected(c.node, level_n);
    for (std::uint64_t t = 0; t < 5; ++t) {
      sampler.Reseed(t);
      sampler.NewTree();
      for (int depth = 0; depth < 4; ++depth) {
        const std::vector<std::uint32_t> f = sampler.NodeFeatures(depth);
        EXPECT_EQ(f.size(), node_n) << "depth " << depth;
        EXPECT_TRUE(std::is_sorted(f.begin(), f.end()));
        EXPECT_EQ(FeatureSet(f.begin(), f.end()).size(), f.size()) << "a feature twice";
        for (std::uint32_t x : f) EXPECT_LT(x, c.features);
      }
    }
  }
}

// Many node draws of one level cover exactly the level's set (never more: nested), and the
// level sets of many levels cover exactly the tree's set.
TEST(ColumnSampler, NodeSetsNestInLevelSetsInTreeSet) {
  const std::uint32_t n = 30;
  ColumnSampler sampler(n, 0.5f, 0.6f, 0.5f, 7);  // tree 15, level 9, node 4
  sampler.Reseed(3);
  sampler.NewTree();
  FeatureSet tree_union;
  for (int depth = 0; depth < 60; ++depth) {
    FeatureSet level_union;
    for (int draw = 0; draw < 100; ++draw) {
      for (std::uint32_t f : sampler.NodeFeatures(depth)) level_union.insert(f);
    }
    EXPECT_EQ(level_union.size(), 9u) << "depth " << depth;
    tree_union.insert(level_union.begin(), level_union.end());
  }
  EXPECT_EQ(tree_union.size(), 15u);
  // The next tree draws another set of 15.
  sampler.Reseed(4);
  sampler.NewTree();
  FeatureSet next_union;
  for (int depth = 0; depth < 60; ++depth) {
    for (int draw = 0; draw < 100; ++draw) {
      for (std::uint32_t f : sampler.NodeFeatures(depth)) next_union.insert(f);
    }
  }
  EXPECT_EQ(next_union.size(), 15u);
  EXPECT_NE(next_union, tree_union);
}

// Every draw is random: 50 draws of 2 features of 10 are not all the same pair.
TEST(ColumnSampler, DrawsDiffer) {
  ColumnSampler sampler(10, 1.0f, 1.0f, 0.2f, 1);
  sampler.NewTree();
  std::set<std::vector<std::uint32_t>> seen;
  for (int i = 0; i < 50; ++i) seen.insert(sampler.NodeFeatures(0));
  EXPECT_GT(seen.size(), 10u);
}

struct Trained {
  GBTreeModel model;
  std::size_t rows;
};

Trained Train(const Params& extra, int rounds) {
  testing::SyntheticSpec spec;
  spec.task = testing::Task::kRegression;
  spec.features = 10;
  spec.rows = 3000;
  spec.missing = 0.0;
  data::DMatrix train = testing::MakeSynthetic(spec);
  Params params = {{"max_depth", "4"}, {"nthread", "1"}, {"seed", "3"}};
  params.insert(params.end(), extra.begin(), extra.end());
  auto learner = test::CreateWithKeys<GBTreeLearner>(params, &rabit::DefaultComm());
  EXPECT_TRUE(learner.ok()) << learner.status().message();
  if (!learner.ok()) return {};
  EXPECT_TRUE((*learner)->SetTrainData(&train).ok());
  for (int i = 0; i < rounds; ++i) EXPECT_TRUE((*learner)->UpdateOneIter(i).ok());
  return {(*learner)->Model(), train.NumRows()};
}

// Split features of every tree (per depth: index depth, all depths: the last entry).
std::vector<FeatureSet> SplitFeatures(const RegTree& tree) {
  std::vector<FeatureSet> by_depth(1);
  std::vector<std::pair<int, int>> stack = {{0, 0}};
  while (!stack.empty()) {
    const auto [n, depth] = stack.back();
    stack.pop_back();
    if (tree.IsLeaf(n)) continue;
    if (by_depth.size() <= static_cast<std::size_t>(depth) + 1) by_depth.resize(depth + 2);
    by_depth[depth].insert(tree.split_index[n]);
    stack.push_back({tree.left[n], depth + 1});
    stack.push_back({tree.right[n], depth + 1});
  }
  FeatureSet all;
  for (const FeatureSet& s : by_depth) all.insert(s.begin(), s.end());
  by_depth.back() = all;
  return by_depth;
}

// The learner uses the sampler: a tree splits on at most its bytree set, a level on at most its
// bylevel set; the union over trees shows that the sets change from tree to tree.
TEST(ColumnSampler, LearnerSplitsOnlyOnSampledFeatures) {
  const Trained bytree = Train({{"colsample_bytree", "0.3"}}, 12);  // 3 of 10
  FeatureSet used;
  for (const RegTree& tree : bytree.model.trees) {
    const FeatureSet all = SplitFeatures(tree).back();
    EXPECT_LE(all.size(), 3u);
    used.insert(all.begin(), all.end());
  }
  EXPECT_GT(used.size(), 3u);

  const Trained bylevel = Train({{"colsample_bylevel", "0.2"}}, 6);  // 2 of 10 per level
  for (const RegTree& tree : bylevel.model.trees) {
    const std::vector<FeatureSet> sets = SplitFeatures(tree);
    for (std::size_t d = 0; d + 1 < sets.size(); ++d) EXPECT_LE(sets[d].size(), 2u);
  }
  // bynode 0.1 of 10: one feature per node, so the root of every tree has one candidate and
  // the roots differ between trees.
  const Trained bynode = Train({{"colsample_bynode", "0.1"}}, 12);
  FeatureSet roots;
  for (const RegTree& tree : bynode.model.trees) roots.insert(tree.split_index[0]);
  EXPECT_GT(roots.size(), 2u);
  const Trained full = Train({}, 12);
  FeatureSet full_roots;
  for (const RegTree& tree : full.model.trees) full_roots.insert(tree.split_index[0]);
  EXPECT_LT(full_roots.size(), roots.size()) << "without sampling the best root repeats";
}

// subsample: squared error gives every row hessian 1, so a tree's root sum_hess is the number
// of rows it was grown on: Binomial(rows, fraction), within 4 standard deviations.
TEST(RowSampler, SubsampleKeepsThatFractionOfRowsPerTree) {
  for (float fraction : {0.5f, 0.8f}) {
    const Trained t = Train({{"subsample", std::to_string(fraction)}}, 8);
    const double mean = fraction * t.rows;
    const double sd = std::sqrt(t.rows * fraction * (1 - fraction));
    std::set<float> distinct;
    for (const RegTree& tree : t.model.trees) {
      EXPECT_NEAR(tree.sum_hess[0], mean, 4 * sd) << "subsample " << fraction;
      distinct.insert(tree.sum_hess[0]);
    }
    EXPECT_GT(distinct.size(), 1u) << "every tree drew the same rows";
  }
  for (const RegTree& tree : Train({}, 2).model.trees) EXPECT_EQ(tree.sum_hess[0], 3000.0f);
}

}  // namespace
}  // namespace treering::booster
