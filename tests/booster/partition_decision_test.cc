// The row partition the grower keeps (sparse layout: bin columns for mostly full data, the
// grouped column walk for sparser data) against the leaves prediction finds by walking each
// row's values down the tree: every row of a leaf's range must reach that leaf. Numerical and
// categorical splits, missing values both ways, 1 and 2 threads.
#include <random>

#include <gtest/gtest.h>

#include "booster/tree/grow/tree_grower.h"
#include "booster/tree/hist/gradient_quantiser.h"
#include "booster/tree/predict/leaf_index.h"
#include "booster/tree/sketch/binned_matrix.h"
#include "booster/tree/sketch/categorical_cuts.h"
#include "booster/tree/sketch/hist_cuts.h"
#include "booster/tree/split/column_sampler.h"
#include "booster/tree/sync/exact_syncs.h"
#include "rabit/rabit.h"
#include "synthetic_data.h"

namespace treering::booster {
namespace {

struct Case {
  double missing;    // 0.1: bin columns; 0.8: below a third full, the column walk
  bool categorical;  // features 0 and 1 hold categories 0..39
  int nthread;
};

void ExpectPartitionMatchesLeaves(const Case& c) {
  testing::SyntheticSpec spec;
  spec.rows = 20000;  // enough work for two threads in every step of the first levels
  spec.features = 8;
  spec.missing = c.missing;
  spec.task = testing::Task::kRegression;
  data::DMatrix dm = testing::MakeSynthetic(spec);
  TreeParam param;
  param.max_depth = 7;
  param.min_child_weight = 0.0f;
  if (c.categorical) {
    param.feature_types = {"c", "c", "q", "q", "q", "q", "q", "q"};
    for (std::size_t i = 0; i < dm.index.size(); ++i) {
      if (dm.index[i] < 2) dm.value[i] = static_cast<float>(static_cast<int>(dm.value[i] * 8));
    }
  }
  HistogramCuts cuts = BuildCuts(dm, spec.features, 256, 1, rabit::DefaultComm());
  ASSERT_TRUE(SetCategoricalCuts(dm, param, rabit::DefaultComm(), &cuts).ok());
  const BinnedMatrix binned = BinnedMatrix::Build(dm, cuts, 1);
  ASSERT_EQ(binned.layout(), BinnedMatrix::Layout::kSparse);
  ColumnSampler sampler(spec.features, 1.0f, 1.0f, 1.0f, 3);
  const Context ctx{.nthread = c.nthread};
  LocalSync sync(ctx);
  TreeGrower grower(param, cuts, binned, &sampler, ctx, &sync);
  std::mt19937 rng(11);
  std::normal_distribution<float> noise(0.0f, 0.3f);
  std::vector<GradientPair> gpair(dm.NumRows());
  for (std::size_t r = 0; r < gpair.size(); ++r) gpair[r] = {dm.label[r] + noise(rng), 1.0f};
  const GradientQuantiser q = GradientQuantiser::ForGradients(gpair, 1, rabit::DefaultComm());
  GBTreeModel model;
  model.num_feature = spec.features;
  model.feature_types = param.feature_types;
  model.trees.push_back(grower.Grow(gpair, q));
  model.tree_info.push_back(0);
  const RegTree& tree = model.trees.front();
  std::vector<float> leaf;
  PredictLeafIndices(model, dm, 1, 1, &leaf);
  std::size_t covered = 0, leaves = 0, categorical_splits = tree.categories.size();
  int default_left = 0;
  for (int node = 0; node < static_cast<int>(tree.left.size()); ++node) {
    if (tree.left[node] >= 0) {
      default_left += tree.default_left[node];
      continue;
    }
    ++leaves;
    const RowSpan rows = grower.Partition().Rows(node);
    for (const std::uint32_t* r = rows.begin; r != rows.end; ++r) {
      ASSERT_EQ(static_cast<int>(leaf[*r]), node) << "row " << *r;
    }
    covered += rows.end - rows.begin;
  }
  EXPECT_EQ(covered, dm.NumRows());
  EXPECT_GE(leaves, 32u);  // deep levels: many small nodes
  EXPECT_GT(default_left, 0);
  if (c.categorical) EXPECT_GT(categorical_splits, 0u);
}

TEST(PartitionDecision, MostlyFullRowsUseBinColumns) {
  for (bool categorical : {false, true}) {
    for (int nthread : {1, 2}) {
      SCOPED_TRACE("categorical " + std::to_string(categorical) + " nthread " +
                   std::to_string(nthread));
      ExpectPartitionMatchesLeaves({0.1, categorical, nthread});
    }
  }
}

TEST(PartitionDecision, SparseRowsWalkEachColumnOncePerLevel) {
  for (bool categorical : {false, true}) {
    for (int nthread : {1, 2}) {
      SCOPED_TRACE("categorical " + std::to_string(categorical) + " nthread " +
                   std::to_string(nthread));
      ExpectPartitionMatchesLeaves({0.8, categorical, nthread});
    }
  }
}

}  // namespace
}  // namespace treering::booster
