// The recovery-epoch state machine (tracker/src/recovery.h) without any I/O: who may take over
// which rank, when an epoch completes, and which losses fail the job.
#include "recovery.h"

#include <gtest/gtest.h>

namespace treering::tracker {
namespace {

JobRoster Assigned(int n, bool task_ids = true) {
  JobRoster roster(n);
  for (int i = 0; i < n; ++i) {
    Arrival a{static_cast<std::uint64_t>(100 + i), Dialect::kNative,
              task_ids ? std::to_string(i) : "", "127.0.0.1", static_cast<std::uint16_t>(9000 + i)};
    EXPECT_TRUE(roster.Join(a).ok());
  }
  EXPECT_TRUE(roster.assigned());
  return roster;
}

proto::Hello Restarted(const std::string& task, std::uint32_t attempt, int rank = -1) {
  proto::Hello h;
  h.command = proto::Command::kRecover;
  h.task_id = task;
  h.attempt = attempt;
  h.rank = rank;
  return h;
}

TEST(RecoveryTest, LossThenEveryRankAskingCompletesTheEpoch) {
  JobRoster roster = Assigned(3);
  Recovery rec(3, 4);
  EXPECT_TRUE(rec.restarts_allowed());
  EXPECT_TRUE(rec.OnLost(1, false).ok());
  EXPECT_TRUE(rec.collecting());
  EXPECT_EQ(rec.epoch(), 0u);
  EXPECT_FALSE(rec.OnRecoverHello(0, 0));
  EXPECT_FALSE(rec.OnRecoverHello(2, 0));
  EXPECT_EQ(rec.Missing(), (std::vector<int>{1}));
  EXPECT_EQ(rec.MissingText(), "rank 1");
  auto placed = rec.PlaceRestarted(Restarted("1", 1), roster);
  ASSERT_TRUE(placed.ok()) << placed.status().message();
  EXPECT_EQ(placed->rank, 1);
  EXPECT_FALSE(placed->supersedes);
  EXPECT_TRUE(rec.OnRecoverHello(1, 1));
  EXPECT_EQ(rec.epoch(), 1u);
  EXPECT_FALSE(rec.collecting());
  EXPECT_FALSE(rec.lost(1));
}

// The ranks a failure during the epoch blames (JobCoordinator::OnWorkerFailed): each lost rank
// once, in loss order, even when it is lost again after its restart asked; none once the epoch
// completes.
TEST(RecoveryTest, LostThisEpochListsEachLossOnceUntilTheEpochCompletes) {
  Recovery rec(3, 4);
  EXPECT_TRUE(rec.OnLost(2, false).ok());
  EXPECT_TRUE(rec.OnLost(0, false).ok());
  EXPECT_FALSE(rec.OnRecoverHello(2, 1));
  EXPECT_TRUE(rec.OnLost(2, false).ok());
  EXPECT_EQ(rec.LostThisEpoch(), (std::vector<int>{2, 0}));
  EXPECT_FALSE(rec.OnRecoverHello(0, 1));
  EXPECT_FALSE(rec.OnRecoverHello(1, 0));
  EXPECT_TRUE(rec.OnRecoverHello(2, 2));
  EXPECT_TRUE(rec.LostThisEpoch().empty());
}

TEST(RecoveryTest, SurvivorsAloneCanRunAnEpoch) {
  // A link timeout without a dead process: every rank asks on its own connection.
  Recovery rec(2, 1);
  EXPECT_FALSE(rec.OnRecoverHello(1, 0));
  EXPECT_TRUE(rec.collecting());
  EXPECT_EQ(rec.MissingText(), "rank 0");
  EXPECT_TRUE(rec.OnRecoverHello(0, 0));
  EXPECT_EQ(rec.epoch(), 1u);
  EXPECT_FALSE(rec.OnRecoverHello(0, 0));  // the next failure opens epoch 2
  EXPECT_TRUE(rec.OnRecoverHello(1, 0));
  EXPECT_EQ(rec.epoch(), 2u);
}

TEST(RecoveryTest, RestartedWorkerIsPlacedByTaskIdOrLowestLostRank) {
  JobRoster named = Assigned(4);
  Recovery rec(4, 3);
  ASSERT_TRUE(rec.OnLost(2, false).ok());
  ASSERT_TRUE(rec.OnLost(3, false).ok());
  EXPECT_EQ(rec.PlaceRestarted(Restarted("3", 1), named)->rank, 3);
  EXPECT_EQ(rec.PlaceRestarted(Restarted("", 1, 3), named)->rank, 3);
  JobRoster anonymous = Assigned(4, false);
  EXPECT_EQ(rec.PlaceRestarted(Restarted("", 1), anonymous)->rank, 2);
  EXPECT_EQ(rec.MissingText(), "ranks 0, 1, 2, 3");
}

TEST(RecoveryTest, BadRecoverHellosAreRefusedWithAReason) {
  JobRoster roster = Assigned(3);
  Recovery rec(3, 3);
  ASSERT_TRUE(rec.OnLost(1, false).ok());
  auto reason = [&](const proto::Hello& h) {
    auto r = rec.PlaceRestarted(h, roster);
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidInput);
    return r.ok() ? std::string() : r.status().message();
  };
  EXPECT_NE(reason(Restarted("7", 1)).find("unknown task '7'"), std::string::npos);
  EXPECT_NE(reason(Restarted("", 1, 5)).find("rank 5, the job has 3 ranks"), std::string::npos);
  EXPECT_NE(reason(Restarted("0", 0)).find("duplicate: rank 0"), std::string::npos);
  EXPECT_NE(reason(Restarted("2", 1, 1)).find("from task '2'"), std::string::npos);
  EXPECT_NE(reason(Restarted("1", 3)).find("attempt 3, but the job allows 3"), std::string::npos);
  Recovery off(3, 1);
  EXPECT_NE(
      off.PlaceRestarted(Restarted("1", 1), roster).status().message().find("restarts are off"),
      std::string::npos);
  Recovery none_lost(3, 3);
  JobRoster anonymous = Assigned(3, false);
  EXPECT_FALSE(none_lost.PlaceRestarted(Restarted("", 1), anonymous).ok());
}

TEST(RecoveryTest, NewerAttemptSupersedesAConnectionNotYetSeenDead) {
  JobRoster roster = Assigned(2);
  Recovery rec(2, 3);
  auto placed = rec.PlaceRestarted(Restarted("1", 1), roster);
  ASSERT_TRUE(placed.ok());
  EXPECT_TRUE(placed->supersedes);
  rec.OnRecoverHello(1, 1);
  // Now attempt 1 is the live one: another attempt-1 Hello is a duplicate.
  EXPECT_FALSE(rec.PlaceRestarted(Restarted("1", 1), roster).ok());
}

TEST(RecoveryTest, SecondLossDuringAnEpochWaitsForThatRankAgain) {
  JobRoster roster = Assigned(3);
  Recovery rec(3, 4);
  ASSERT_TRUE(rec.OnLost(1, false).ok());
  EXPECT_FALSE(rec.OnRecoverHello(0, 0));
  EXPECT_FALSE(rec.OnRecoverHello(1, 1));  // the restart asked ...
  ASSERT_TRUE(rec.OnLost(1, false).ok());  // ... and died again
  EXPECT_EQ(rec.Missing(), (std::vector<int>{1, 2}));
  EXPECT_EQ(rec.PlaceRestarted(Restarted("1", 2), roster)->rank, 1);
  EXPECT_FALSE(rec.OnRecoverHello(1, 2));
  EXPECT_TRUE(rec.OnRecoverHello(2, 0));
  EXPECT_EQ(rec.epoch(), 1u);
}

TEST(RecoveryTest, LossFailsTheJobWhenRestartsAreOffOrSomeoneFinished) {
  Recovery off(3, 1);
  Status s = off.OnLost(2, false);
  EXPECT_EQ(s.code(), StatusCode::kAborted);
  EXPECT_NE(s.message().find("rank 2 failed"), std::string::npos);
  Recovery on(3, 2);
  s = on.OnLost(0, true);
  EXPECT_EQ(s.code(), StatusCode::kAborted);
  EXPECT_NE(s.message().find("rank 0 was lost after other ranks finished"), std::string::npos);
}

}  // namespace
}  // namespace treering::tracker
