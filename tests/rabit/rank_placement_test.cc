// Which ranks share a machine's cores (collective/rank_placement.h) and what the cost model does
// with it: counted per machine from the gathered placements, learnt by every Communicator at
// start (the in-process ranks share this machine), and recursive doubling's per-step wait for a
// core that makes oversubscribed worlds take the tree for small messages (docs/collectives.md).
#include "collective/rank_placement.h"

#include <algorithm>
#include <thread>

#include <gtest/gtest.h>

#include "collective/allreduce_cost.h"
#include "loopback_world.h"

namespace rabit::testing {
namespace {

using collective::AllreduceAlgorithm;
using collective::AllreduceChoiceOptions;
using collective::ChooseAllreduce;
using collective::LinkModel;
using collective::PredictAllreduceSeconds;
using collective::RankPlacement;
using collective::RanksBeyondCores;

RankPlacement On(std::uint64_t machine, int cores) {
  RankPlacement p;
  p.machine = machine;
  p.cores = cores;
  return p;
}

TEST(RankPlacement, CountsRanksBeyondCoresOfTheBusiestMachine) {
  EXPECT_EQ(RanksBeyondCores({}), 0);
  EXPECT_EQ(RanksBeyondCores({On(1, 2), On(1, 2)}), 0);
  EXPECT_EQ(RanksBeyondCores({On(1, 2), On(1, 2), On(1, 2), On(1, 2)}), 2);
  // One rank a machine: never oversubscribed, whatever the world.
  std::vector<RankPlacement> spread;
  for (int m = 0; m < 8; ++m) spread.push_back(On(m, 1));
  EXPECT_EQ(RanksBeyondCores(spread), 0);
  // The busiest machine counts: 5 ranks on a 4-core machine, 3 on a 1-core one.
  EXPECT_EQ(RanksBeyondCores(
                {On(7, 4), On(7, 4), On(7, 4), On(7, 4), On(7, 4), On(9, 1), On(9, 1), On(9, 1)}),
            2);
  // A bogus core count is read as one core.
  EXPECT_EQ(RanksBeyondCores({On(3, 0), On(3, -5)}), 1);
}

TEST(RankPlacement, LocalPlacementIsThisMachine) {
  const RankPlacement a = collective::LocalPlacement(3);
  const RankPlacement b = collective::LocalPlacement(-1);
  EXPECT_EQ(a.parent, 3);
  EXPECT_EQ(b.parent, -1);
  EXPECT_EQ(a.machine, b.machine);
  EXPECT_EQ(a.cores, static_cast<int>(std::max(1U, std::thread::hardware_concurrency())));
}

// Every in-process rank is on this machine, so each Communicator learns the same count.
TEST(RankPlacement, CommunicatorLearnsItAtStart) {
  const int cores = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  for (int world : {1, 2, 5}) {
    LoopbackWorld w(world, collective::CollectiveOptions{});
    for (int r = 0; r < world; ++r) {
      EXPECT_EQ(w.comm(r).options().allreduce.link.ranks_beyond_cores, std::max(0, world - cores))
          << world << " ranks, rank " << r;
    }
  }
}

// alpha = 1 s, 1 B/s links, 2 B/s reduction, each rank beyond the cores 0.5 s a recursive step.
TEST(RankPlacement, RecursiveStepsPayTheCoreWaits) {
  LinkModel m{1.0, 1.0, 2.0};
  m.ranks_beyond_cores = 4;
  m.core_wait_seconds = 0.5;
  EXPECT_DOUBLE_EQ(PredictAllreduceSeconds(AllreduceAlgorithm::kRecursiveDoubling, m, 8, 8),
                   3 * (1 + 4 * 0.5 + 8 + 4));
  EXPECT_DOUBLE_EQ(PredictAllreduceSeconds(AllreduceAlgorithm::kHalvingDoubling, m, 8, 8),
                   2 * 3 * (1 + 4 * 0.5) + 2.0 * 7 / 8 * 8 + 7.0 / 8 * 4);
  // The tree pipelines its hops: unchanged. The ring's 2(p-1) steps each wait too.
  EXPECT_DOUBLE_EQ(PredictAllreduceSeconds(AllreduceAlgorithm::kTree, m, 8, 8),
                   2 * 3 + 3 * 8 + 2 * 4);
  EXPECT_DOUBLE_EQ(PredictAllreduceSeconds(AllreduceAlgorithm::kRing, m, 8, 8),
                   2 * 7 * (1 + 4 * 0.5) + 2.0 * 7 / 8 * 8 + 7.0 / 8 * 4);
}

// The measured cases (docs/collectives.md, docs/benchmarks.md): 4 and 8 ranks on 2 cores took
// recursive doubling for 4 bytes at 2-3x the tree's time, and the ring for 1 MiB at 1.1-1.3x
// halving's; oversubscribed they take the tree for small messages and halving for large ones.
// One rank a core keeps the recursive algorithms.
TEST(RankPlacement, OversubscribedWorldsTakeTreeAndHalving) {
  AllreduceChoiceOptions o;
  o.recursive_links = true;
  for (int world : {4, 8}) {
    o.link.ranks_beyond_cores = world - 2;
    EXPECT_EQ(ChooseAllreduce(o, world, 4), AllreduceAlgorithm::kTree) << world;
    // 1 MiB, quiet, all three forced (docs/benchmarks.md): np=4 halving 2.42 ms, tree 2.92,
    // ring 3.10; np=8 tree 6.71 ms, halving 7.18, ring 8.02.
    EXPECT_EQ(ChooseAllreduce(o, world, 1 << 20),
              world == 4 ? AllreduceAlgorithm::kHalvingDoubling : AllreduceAlgorithm::kTree)
        << world;
    EXPECT_EQ(ChooseAllreduce(o, world, 16 << 20), AllreduceAlgorithm::kHalvingDoubling) << world;
    o.link.ranks_beyond_cores = 0;
    EXPECT_EQ(ChooseAllreduce(o, world, 4), AllreduceAlgorithm::kRecursiveDoubling) << world;
    EXPECT_EQ(ChooseAllreduce(o, world, 16 << 20), AllreduceAlgorithm::kHalvingDoubling) << world;
  }
}

}  // namespace
}  // namespace rabit::testing
