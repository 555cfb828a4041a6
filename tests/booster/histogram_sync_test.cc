// MakeHistogramSync: the strategy chosen once per learner for the world and tree_learner
// (booster/tree/sync/histogram_sync.h). One process never sums, whatever tree_learner says; a
// categorical feature takes tree_learner=data to the allreduce (a categorical split reads its
// feature's whole histogram on every rank).
#include "booster/tree/sync/histogram_sync.h"

#include <memory>
#include <typeinfo>
#include <vector>

#include <gtest/gtest.h>

#include "booster/tree/sync/exact_syncs.h"
#include "booster/tree/sync/voting_split_search.h"
#include "rabit/comm.h"
#include "thread_world.h"

namespace treering::booster {
namespace {

HistogramCuts FourFeatures() {
  HistogramCuts cuts;
  for (int f = 0; f < 4; ++f) {
    for (int b = 0; b < 8; ++b) cuts.values.push_back(float(b + 1));
    cuts.ptrs.push_back(cuts.ptrs.back() + 8);
    cuts.min_vals.push_back(-1.0f);
  }
  return cuts;
}

TreeParam Learner(TreeLearner learner, bool categorical) {
  TreeParam param;
  param.tree_learner = learner;
  if (categorical) param.feature_types = {"q", "c", "q", "q"};
  return param;
}

// The dynamic type of the strategy made for `param` on `comm`.
const std::type_info& Chosen(const TreeParam& param, rabit::Comm* comm) {
  static const HistogramCuts cuts = FourFeatures();
  static const Context ctx{.nthread = 1};
  const std::unique_ptr<HistogramSync> sync = MakeHistogramSync(param, cuts, comm, ctx);
  const HistogramSync& s = *sync;
  return typeid(s);
}

TEST(HistogramSync, OneProcessIsLocalWhateverTheTreeLearner) {
  const std::unique_ptr<rabit::Comm> one = rabit::MakeWorldOfOne();
  for (TreeLearner l : {TreeLearner::kAllreduce, TreeLearner::kData, TreeLearner::kVoting}) {
    EXPECT_EQ(Chosen(Learner(l, false), one.get()), typeid(LocalSync));
  }
}

TEST(HistogramSync, DistributedFollowsTheTreeLearnerAndCategories) {
  std::vector<std::vector<const std::type_info*>> chosen(2);
  treering::testing::ThreadWorld(2).Run([&](int rank, rabit::Comm* comm) {
    chosen[rank] = {&Chosen(Learner(TreeLearner::kAllreduce, false), comm),
                    &Chosen(Learner(TreeLearner::kData, false), comm),
                    &Chosen(Learner(TreeLearner::kData, true), comm),
                    &Chosen(Learner(TreeLearner::kVoting, false), comm)};
  });
  for (int rank = 0; rank < 2; ++rank) {
    ASSERT_EQ(chosen[rank].size(), 4u);
    EXPECT_EQ(*chosen[rank][0], typeid(AllreduceSync)) << "rank " << rank;
    EXPECT_EQ(*chosen[rank][1], typeid(FeatureOwnerSync)) << "rank " << rank;
    EXPECT_EQ(*chosen[rank][2], typeid(AllreduceSync)) << "rank " << rank;
    EXPECT_EQ(*chosen[rank][3], typeid(VotingSplitSearch)) << "rank " << rank;
  }
}

}  // namespace
}  // namespace treering::booster
