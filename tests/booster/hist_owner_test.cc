// Feature-owner histogram synchronisation (tree_learner=data): the feature cut that decides
// which rank sums and evaluates which bins, and the trees grown with it on N thread ranks
// compared byte for byte with one process and with tree_learner=allreduce. A rank evaluating a
// feature whose bins it does not own (they hold only its local sums) grows other trees.
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "booster/model_io.h"
#include "booster/tree/learner/gbtree_learner.h"
#include "booster/tree/sync/feature_owners.h"
#include "context_keys.h"
#include "synthetic_data.h"
#include "thread_world.h"

namespace treering::booster {
namespace {

using Params = std::vector<std::pair<std::string, std::string>>;

// Every feature has exactly one owner, each rank's features are one run in rank order, its bin
// range is exactly its features' bins, and no rank is further from total/world than one
// feature's bins.
void ExpectValidCut(const std::vector<std::uint32_t>& ptrs, int world) {
  SCOPED_TRACE("world " + std::to_string(world));
  std::uint32_t widest = 0;
  for (std::size_t f = 0; f + 1 < ptrs.size(); ++f)
    widest = std::max(widest, ptrs[f + 1] - ptrs[f]);
  const double share = double(ptrs.back()) / world;
  for (int rank = 0; rank < world; ++rank) {
    const FeatureOwners owners(ptrs, world, rank);
    ASSERT_EQ(owners.World(), world);
    EXPECT_EQ(owners.BinBegin(0), 0u);
    EXPECT_EQ(owners.BinEnd(world - 1), ptrs.back());
    for (int r = 0; r < world; ++r) {
      EXPECT_LE(owners.BinBegin(r), owners.BinEnd(r));
      EXPECT_LE(std::abs(double(owners.BinEnd(r) - owners.BinBegin(r)) - share), 2.0 * widest);
    }
    for (std::size_t f = 0; f + 1 < ptrs.size(); ++f) {
      const int o = owners.OwnerOfFeature()[f];
      ASSERT_GE(o, 0);
      ASSERT_LT(o, world);
      EXPECT_GE(ptrs[f], owners.BinBegin(o)) << "feature " << f;
      EXPECT_LE(ptrs[f + 1], owners.BinEnd(o)) << "feature " << f;
      if (f > 0) {
        EXPECT_GE(o, owners.OwnerOfFeature()[f - 1]);
      }
    }
  }
}

TEST(FeatureOwners, CutsEveryFeatureOnceWithEvenBins) {
  std::vector<std::uint32_t> ptrs{0};
  for (std::uint32_t f = 0; f < 37; ++f) ptrs.push_back(ptrs.back() + 1 + (f * 7919) % 40);
  for (int world : {1, 2, 3, 4, 5, 7}) ExpectValidCut(ptrs, world);
  // More ranks than features: some own nothing (an empty slice in the reduce-scatter).
  ExpectValidCut({0, 10, 11, 30}, 5);
  const FeatureOwners four(std::vector<std::uint32_t>{0, 100, 200, 300, 400}, 4, 2);
  EXPECT_EQ(four.OwnerOfFeature(), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(four.BinBegin(2), 200u);
  EXPECT_EQ(four.BinEnd(2), 300u);
}

// Every rank's saved model after `rounds` rounds on contiguous shards of `all`.
std::vector<std::string> TrainOnRanks(Params params, const data::DMatrix& all, int world,
                                      int rounds) {
  params.emplace_back("tree_method", "hist");
  std::vector<data::DMatrix> shards = testing::ContiguousShards(all, world);
  std::vector<std::string> models(static_cast<std::size_t>(world));
  treering::testing::ThreadWorld(world).Run([&](int rank, rabit::Comm* comm) {
    auto learner = test::CreateWithKeys<GBTreeLearner>(params, comm);
    ASSERT_TRUE(learner.ok()) << learner.status().message();
    ASSERT_TRUE(learner.value()->SetTrainData(&shards[static_cast<std::size_t>(rank)]).ok());
    for (int i = 0; i < rounds; ++i) ASSERT_TRUE(learner.value()->UpdateOneIter(i).ok());
    auto json = ModelToJson(learner.value()->Model());
    ASSERT_TRUE(json.ok());
    models[static_cast<std::size_t>(rank)] = json.value();
  });
  return models;
}

void ExpectBothModesEqualOneProcess(Params params, const data::DMatrix& all,
                                    const std::vector<int>& worlds, int rounds) {
  const std::vector<std::string> single = TrainOnRanks(params, all, 1, rounds);
  ASSERT_FALSE(single[0].empty());
  for (const char* mode : {"data", "allreduce"}) {
    Params p = params;
    p.emplace_back("tree_learner", mode);
    for (int world : worlds) {
      SCOPED_TRACE(std::string(mode) + ", world " + std::to_string(world));
      const std::vector<std::string> models = TrainOnRanks(p, all, world, rounds);
      for (int r = 0; r < world; ++r) EXPECT_EQ(models[r], single[0]) << "rank " << r;
    }
  }
}

// Three ranks: 11 features with 2..32 bins cannot be cut into equal slices.
TEST(HistOwner, ThreeRanksUnevenSlicesEqualOneProcess) {
  testing::SyntheticSpec spec;
  spec.rows = 1500;
  spec.features = 11;
  spec.distinct_values = 32;
  data::DMatrix all = testing::MakeSynthetic(spec);
  for (std::size_t k = 0; k < all.index.size(); ++k) {  // feature f keeps 2 + 3f values
    const std::uint32_t f = all.index[k];
    all.value[k] = std::fmod(all.value[k] * 8, 2 + 3 * f) / 8;
  }
  ExpectBothModesEqualOneProcess({{"objective", "binary:logistic"},
                                  {"max_depth", "5"},
                                  {"colsample_bynode", "0.8"},
                                  {"nthread", "1"}},
                                 all, {3}, 4);
}

// Wide and sparse (the sparse bin layout and the column-wise root): 300 features, 3 % present.
TEST(HistOwner, SparseWideDataEqualsOneProcess) {
  testing::SyntheticSpec spec;
  spec.task = testing::Task::kMulticlass3;
  spec.rows = 1200;
  spec.features = 300;
  spec.missing = 0.97;
  spec.distinct_values = 20;
  const data::DMatrix all = testing::MakeSynthetic(spec);
  ExpectBothModesEqualOneProcess(
      {{"objective", "multi:softprob"}, {"num_class", "3"}, {"max_depth", "4"}, {"nthread", "2"}},
      all, {2, 4}, 2);
}

// Lossguide builds one node per batch: the reduce-scatter runs per node.
TEST(HistOwner, LossGuideEqualsOneProcess) {
  testing::SyntheticSpec spec;
  spec.task = testing::Task::kRegression;
  spec.rows = 1000;
  spec.features = 9;
  const data::DMatrix all = testing::MakeSynthetic(spec);
  ExpectBothModesEqualOneProcess({{"objective", "reg:squarederror"},
                                  {"grow_policy", "lossguide"},
                                  {"max_leaves", "12"},
                                  {"max_depth", "0"},
                                  {"nthread", "1"}},
                                 all, {2, 5}, 3);
}

}  // namespace
}  // namespace treering::booster
