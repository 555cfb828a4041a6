// The robust engine in-process (threads as ranks, loopback links, RelinkHub as the tracker):
// a rank killed at every position of a short job, two neighbours killed at once, rank 0 killed,
// lazy prepare skipped on replay, local state recovered from a ring successor, and the
// unrecoverable case. Every run must end with the failure-free run's model on every rank.
#include <gtest/gtest.h>

#include "robust_world.h"

namespace rabit::testing {
namespace {

const std::vector<std::uint64_t>& FailureFreeModel() {
  static const std::vector<std::uint64_t> model = [] {
    const auto results = RunRobustJob(JobSpec{});
    for (const auto& r : results) EXPECT_TRUE(r.status.ok()) << r.status.message();
    return results[0].model;
  }();
  return model;
}

void ExpectSameModelEverywhere(const std::vector<JobResult>& results) {
  ASSERT_EQ(FailureFreeModel().size(), 2u + 3u);  // features, seed, one digest per version
  for (std::size_t r = 0; r < results.size(); ++r) {
    ASSERT_TRUE(results[r].status.ok()) << "rank " << r << ": " << results[r].status.message();
    EXPECT_EQ(results[r].model, FailureFreeModel()) << "rank " << r;
  }
}

TEST(RobustEngine, FailureFreeRunAgreesOnEveryRank) {
  const auto results = RunRobustJob(JobSpec{});
  ExpectSameModelEverywhere(results);
  for (const auto& r : results) EXPECT_EQ(r.attempts, 1);
}

// (version, seq) positions of the job: per version Allreduce, Broadcast, Allgather and
// CheckPoint (seq 3); version 0 starts with the two setup collectives (before LoadCheckPoint).
std::vector<engine::MockPoint> EveryPosition(int rank) {
  std::vector<engine::MockPoint> out;
  for (std::uint32_t v = 0; v < 3; ++v) {
    for (std::uint64_t s = 0; s < (v == 0 ? 6u : 4u); ++s) out.push_back({rank, v, s, 0});
  }
  return out;
}

class KillEveryPosition : public ::testing::TestWithParam<int> {};

TEST_P(KillEveryPosition, RestartedRankEndsWithTheSameModel) {
  for (const engine::MockPoint& point : EveryPosition(GetParam())) {
    SCOPED_TRACE(::testing::Message()
                 << "mock=" << point.rank << "," << point.version << "," << point.seq << ",0");
    JobSpec spec;
    spec.mocks = {point};
    const auto results = RunRobustJob(spec);
    ExpectSameModelEverywhere(results);
    EXPECT_EQ(results[point.rank].attempts, 2);
  }
}

INSTANTIATE_TEST_SUITE_P(Ranks, KillEveryPosition, ::testing::Values(0, 1, 3));

TEST(RobustEngine, TwoRingNeighboursKilledAtOnce) {
  JobSpec spec;
  spec.mocks = {{1, 1, 2, 0}, {2, 1, 2, 0}};
  const auto results = RunRobustJob(spec);
  ExpectSameModelEverywhere(results);
  // Rank 1's local state came back from rank 3, its only surviving successor holding it.
  EXPECT_EQ(results[1].local_loaded, "rank 1 after version 0");
  EXPECT_EQ(results[2].local_loaded, "rank 2 after version 0");
}

TEST(RobustEngine, SameRankKilledTwiceAndAnotherLater) {
  JobSpec spec;
  spec.mocks = {{2, 0, 1, 0}, {2, 1, 0, 1}, {0, 2, 3, 0}, {3, 0, 4, 0}};
  const auto results = RunRobustJob(spec);
  ExpectSameModelEverywhere(results);
  EXPECT_EQ(results[2].attempts, 3);
  EXPECT_EQ(results[0].attempts, 2);
  EXPECT_EQ(results[3].attempts, 2);
}

TEST(RobustEngine, ReplayedCollectivesDoNotCallPrepare) {
  JobSpec spec;
  spec.mocks = {{1, 1, 2, 0}};  // dies before version 1's Allgather: its Allreduce is cached
  const auto results = RunRobustJob(spec);
  ExpectSameModelEverywhere(results);
  EXPECT_EQ(results[1].loaded_version, 1);
  EXPECT_EQ(results[1].local_loaded, "rank 1 after version 0");
  // Version 1's Allreduce was served from the survivors' cache; version 2's ran for real.
  EXPECT_EQ(results[1].prepared_versions, std::vector<int>({2}));
  EXPECT_EQ(results[0].prepared_versions, std::vector<int>({0, 1, 2}));
}

TEST(RobustEngine, EveryRankKilledAtOnceStartsAfresh) {
  JobSpec spec;
  for (int r = 0; r < spec.world; ++r) spec.mocks.push_back({r, 1, 1, 0});
  const auto results = RunRobustJob(spec);
  ExpectSameModelEverywhere(results);
  for (const auto& r : results) EXPECT_EQ(r.loaded_version, 0);
}

TEST(RobustEngine, LostLocalStateFailsNamingTheRank) {
  JobSpec spec;
  spec.local_replica = 1;  // rank 1's local state lives on rank 2 only
  spec.mocks = {{1, 1, 0, 0}, {2, 1, 0, 0}};
  const auto results = RunRobustJob(spec);
  for (std::size_t r = 0; r < results.size(); ++r) {
    EXPECT_FALSE(results[r].status.ok()) << "rank " << r;
    EXPECT_NE(results[r].status.message().find("local checkpoint (version 1) of rank 1 is lost"),
              std::string::npos)
        << results[r].status.message();
  }
}

}  // namespace
}  // namespace rabit::testing
