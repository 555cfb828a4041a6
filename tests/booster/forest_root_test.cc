// A forest's roots from its whole-sample histogram (TreeGrower::SetForestGradients,
// forest_root.cc) against roots built from each tree's sampled rows: every tree must be the
// same, bit for bit. The gradients hold one outlier that some samples leave out, so the
// quantiser's scale moves between trees (the kept total must not serve another scale), and a
// second forest on other gradients must not reuse the first one's total.
#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "booster/tree/grow/tree_grower.h"
#include "booster/tree/hist/gradient_quantiser.h"
#include "booster/tree/sketch/binned_matrix.h"
#include "booster/tree/sketch/hist_cuts.h"
#include "booster/tree/split/column_sampler.h"
#include "booster/tree/sync/exact_syncs.h"
#include "rabit/rabit.h"
#include "synthetic_data.h"

namespace treering::booster {
namespace {

constexpr int kTrees = 12;
constexpr std::uint32_t kOutlierRow = 17;

// Tree k's sample: rows kept with probability 0.75, the others' pairs zeroed.
std::vector<GradientPair> Sampled(const std::vector<GradientPair>& all, int k) {
  std::mt19937_64 rng(1000 + k);
  std::bernoulli_distribution keep(0.75);
  std::vector<GradientPair> out(all.size());
  for (std::size_t r = 0; r < all.size(); ++r) out[r] = keep(rng) ? all[r] : GradientPair{};
  return out;
}

void ExpectSameTree(const RegTree& a, const RegTree& b, int k) {
  EXPECT_EQ(a.left, b.left) << "tree " << k;
  EXPECT_EQ(a.split_index, b.split_index) << "tree " << k;
  EXPECT_EQ(a.split_cond, b.split_cond) << "tree " << k;  // leaf values too
  EXPECT_EQ(a.loss_change, b.loss_change) << "tree " << k;
  EXPECT_EQ(a.sum_hess, b.sum_hess) << "tree " << k;
  EXPECT_EQ(a.base_weight, b.base_weight) << "tree " << k;
}

class ForestRoot : public ::testing::TestWithParam<int> {};

TEST_P(ForestRoot, TreesEqualThoseFromTheirOwnRoots) {
  testing::SyntheticSpec spec;
  spec.rows = 20000;
  spec.features = 8;
  spec.missing = 0.0;
  spec.task = testing::Task::kRegression;
  const data::DMatrix dm = testing::MakeSynthetic(spec);
  TreeParam param;
  param.max_depth = 5;
  param.subsample = 0.75f;  // the grower keeps the sampled rows only (DropLeftOut)
  const HistogramCuts cuts = BuildCuts(dm, spec.features, 256, 1, rabit::DefaultComm());
  const BinnedMatrix binned = BinnedMatrix::Build(dm, cuts, 1);
  ASSERT_EQ(binned.layout(), BinnedMatrix::Layout::kDense8);
  const Context ctx{.nthread = GetParam()};
  ColumnSampler shared_sampler(spec.features, 1.0f, 1.0f, 0.8f, 5);
  ColumnSampler own_sampler(spec.features, 1.0f, 1.0f, 0.8f, 5);
  LocalSync shared_sync(ctx), own_sync(ctx);
  TreeGrower shared(param, cuts, binned, &shared_sampler, ctx, &shared_sync);
  TreeGrower own(param, cuts, binned, &own_sampler, ctx, &own_sync);

  std::mt19937 rng(3);
  std::normal_distribution<float> noise(0.0f, 0.3f);
  std::vector<GradientPair> gpair(dm.NumRows());
  for (std::size_t r = 0; r < gpair.size(); ++r) gpair[r] = {dm.label[r] + noise(rng), 1.0f};
  gpair[kOutlierRow].grad = 4096.0f;  // its absence halves the grad scale several times

  for (int forest = 0; forest < 2; ++forest) {
    if (forest == 1) {  // other gradients of the same maxima: the old total is wrong for them
      for (std::size_t r = 0; r < gpair.size(); r += 3) gpair[r].grad *= 0.5f;
      gpair[kOutlierRow].grad = 4096.0f;
    }
    shared.SetForestGradients(&gpair);
    int outlier_kept = 0;
    for (int k = 0; k < kTrees; ++k) {
      const std::vector<GradientPair> sampled = Sampled(gpair, k + forest * kTrees);
      outlier_kept += sampled[kOutlierRow].grad != 0.0f;
      const GradientQuantiser q = GradientQuantiser::ForGradients(sampled, 1, rabit::DefaultComm());
      shared_sampler.Reseed(k);
      own_sampler.Reseed(k);
      const RegTree a = shared.Grow(sampled, q);
      const RegTree b = own.Grow(sampled, q);
      ExpectSameTree(a, b, k);
      ASSERT_EQ(shared.LeftOut().rows.size(), own.LeftOut().rows.size());
    }
    // Both scales occurred, each more than once: the total was reused and rebuilt.
    EXPECT_GT(outlier_kept, 1);
    EXPECT_LT(outlier_kept, kTrees - 1);
  }
  shared.SetForestGradients(nullptr);
}

INSTANTIATE_TEST_SUITE_P(Threads, ForestRoot, ::testing::Values(1, 2));

}  // namespace
}  // namespace treering::booster
