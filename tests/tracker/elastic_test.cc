// Elastic shrink in the tracker (docs/fault-tolerance.md, "Elastic jobs"): the pure pieces
// (JobRoster::Shrink, Recovery::Droppable / CompleteShrunk) and the tracker against fake
// workers: a rank lost for good (its connection dropped, or silent: it never asks) is dropped
// after the elastic timeout and the others get the next epoch's Assign with their new rank and
// world; a late restart of the dropped task is refused; below min_workers the job fails naming
// the lost rank and its host; without --elastic nothing changes. Grow: a joiner's Hello is
// announced to every rank (ResizePending) and the next epoch ranks it after the others.
#include <gtest/gtest.h>

#include "fake_workers.h"
#include "job_roster.h"
#include "recovery.h"

namespace treering::testing {
namespace {

using tracker::Arrival;
using tracker::Dialect;
using tracker::JobRoster;
using tracker::Recovery;

constexpr char kToken[] = "el-token";

TEST(ElasticStateTest, ShrinkRenumbersInOldOrderAndForgetsTheDroppedTasks) {
  JobRoster roster(4);
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(
        roster
            .Join(Arrival{static_cast<std::uint64_t>(10 + i), Dialect::kNative, std::to_string(i),
                          "10.0.0." + std::to_string(i + 1), static_cast<std::uint16_t>(7000 + i)})
            .ok());
  }
  EXPECT_EQ(roster.Shrink({2}), (std::vector<int>{0, 1, 3}));
  EXPECT_EQ(roster.num_workers(), 3);
  EXPECT_EQ(roster.worker(2).host, "10.0.0.4");
  EXPECT_EQ(roster.RankOfTask("3"), 2);
  EXPECT_FALSE(roster.RankOfTask("2").has_value());
  const proto::Assign a = roster.AssignFor(2, 1);
  EXPECT_EQ(a.world_size, 3);
  EXPECT_EQ(a.rank, 2);
  for (const proto::PeerAddress& p : a.connect_to) EXPECT_LT(p.rank, 3);
}

TEST(ElasticStateTest, DroppableAreTheRanksThatDidNotAsk) {
  Recovery rec(4, 1, /*elastic=*/true);
  EXPECT_TRUE(rec.losses_allowed());
  EXPECT_TRUE(rec.Droppable().empty());  // no epoch open
  EXPECT_TRUE(rec.OnLost(2, false).ok());
  EXPECT_TRUE(rec.Droppable().empty()) << "nobody asked yet: nothing to form a world from";
  EXPECT_FALSE(rec.OnRecoverHello(0, 0));
  EXPECT_FALSE(rec.OnRecoverHello(3, 0));
  EXPECT_EQ(rec.Droppable(), (std::vector<int>{1, 2}));  // rank 1 silent, rank 2 lost
  EXPECT_FALSE(rec.OnRecoverHello(1, 0));
  EXPECT_EQ(rec.Droppable(), (std::vector<int>{2}));
  rec.CompleteShrunk({0, 1, 3});
  EXPECT_EQ(rec.epoch(), 1u);
  EXPECT_FALSE(rec.collecting());
  EXPECT_EQ(rec.num_workers(), 3);
  Recovery plain(4, 1);
  EXPECT_FALSE(plain.OnLost(2, false).ok()) << "without elastic and restarts a loss is fatal";
}

TrackerOptions Elastic(int n, int min_workers = 1) {
  TrackerOptions o;
  o.num_workers = n;
  o.token = kToken;
  o.bootstrap_timeout_s = 30;
  o.recovery_timeout_s = 30;
  o.elastic = true;
  o.elastic_timeout_s = 0.3;
  o.min_workers = min_workers;
  return o;
}

// A survivor's recover Hello (task id = its rank), or a restarted task's (rank -1).
proto::Hello Recover(int rank, std::uint16_t port, const std::string& task = "") {
  return RecoverHello(task.empty() ? std::to_string(rank) : task, rank, 0, port);
}

TEST(TrackerElasticTest, LostRankIsDroppedAndTheOthersAreRenumbered) {
  RunningTracker t(Elastic(4));
  std::vector<FakeClient> w = Bootstrapped(t, 4, kToken);
  w[1].Close();  // rank 1's process dies and is not restarted
  for (int r : {0, 2, 3}) {
    ASSERT_TRUE(w[r].SendRaw(proto::Encode(Recover(r, 8000 + r))).ok());
  }
  const int want_rank[] = {0, -1, 1, 2};
  for (int r : {0, 2, 3}) {
    auto a = w[r].ReadAssign(5);
    ASSERT_TRUE(a.ok()) << "old rank " << r << ": " << a.status().message();
    EXPECT_EQ(a->rank, want_rank[r]);
    EXPECT_EQ(a->world_size, 3);
    EXPECT_EQ(a->epoch, 1u);
    for (const proto::PeerAddress& p : a->connect_to) {
      EXPECT_EQ(p.port, p.rank == 0 ? 8000 : 8001 + p.rank) << "the new rank's new port";
    }
  }
  // Task 1 restarted too late: unknown now.
  FakeClient late;
  ASSERT_TRUE(late.Connect("127.0.0.1", t.port()).ok());
  proto::Hello h = Recover(-1, 9001, "1");
  h.attempt = 1;
  ASSERT_TRUE(late.SayHello(h, kToken).ok());
  auto f = late.ReadFrame(5);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->header.kind, proto::Kind::kReject);
  for (int r : {0, 2, 3}) ASSERT_TRUE(w[r].SendRaw(proto::Encode(proto::Shutdown{})).ok());
  Status done = t.Result(10);
  EXPECT_TRUE(done.ok()) << done.message();
}

TEST(TrackerElasticTest, SilentRankIsDroppedAfterTheTimeout) {
  RunningTracker t(Elastic(3));
  std::vector<FakeClient> w = Bootstrapped(t, 3, kToken);
  // Rank 2's host left the network: its connection stays open, it never asks.
  ASSERT_TRUE(w[0].SendRaw(proto::Encode(Recover(0, 8000))).ok());
  ASSERT_TRUE(w[1].SendRaw(proto::Encode(Recover(1, 8001))).ok());
  for (int r : {0, 1}) {
    auto a = w[r].ReadAssign(5);
    ASSERT_TRUE(a.ok()) << a.status().message();
    EXPECT_EQ(a->rank, r);
    EXPECT_EQ(a->world_size, 2);
  }
  EXPECT_TRUE(w[2].WaitClosed(5)) << "the dropped rank's connection is closed";
  for (int r : {0, 1}) ASSERT_TRUE(w[r].SendRaw(proto::Encode(proto::Shutdown{})).ok());
  Status done = t.Result(10);
  EXPECT_TRUE(done.ok()) << done.message();
}

TEST(TrackerElasticTest, BelowMinWorkersFailsNamingTheLostRankAndHost) {
  RunningTracker t(Elastic(3, 3));
  std::vector<FakeClient> w = Bootstrapped(t, 3, kToken);
  w[2].Close();
  ASSERT_TRUE(w[0].SendRaw(proto::Encode(Recover(0, 8000))).ok());
  ASSERT_TRUE(w[1].SendRaw(proto::Encode(Recover(1, 8001))).ok());
  Status done = t.Result(10);
  ASSERT_FALSE(done.ok());
  EXPECT_NE(done.message().find("elastic: lost rank 2 [rank 2 on 127.0.0.1]"), std::string::npos)
      << done.message();
  EXPECT_NE(done.message().find("min_workers = 3"), std::string::npos) << done.message();
}

TEST(TrackerElasticTest, ARestartInTimeKeepsTheWorld) {
  TrackerOptions o = Elastic(3);
  o.max_attempts = 3;
  o.elastic_timeout_s = 10;
  RunningTracker t(o);
  std::vector<FakeClient> w = Bootstrapped(t, 3, kToken);
  w[1].Close();
  ASSERT_TRUE(w[0].SendRaw(proto::Encode(Recover(0, 8000))).ok());
  ASSERT_TRUE(w[2].SendRaw(proto::Encode(Recover(2, 8002))).ok());
  w[1].Close();
  ASSERT_TRUE(w[1].Connect("127.0.0.1", t.port()).ok());
  proto::Hello h = Recover(-1, 8001, "1");
  h.attempt = 1;
  ASSERT_TRUE(w[1].SayHello(h, kToken).ok());
  for (int r = 0; r < 3; ++r) {
    auto a = w[r].ReadAssign(5);
    ASSERT_TRUE(a.ok()) << a.status().message();
    EXPECT_EQ(a->rank, r);
    EXPECT_EQ(a->world_size, 3);
  }
  for (auto& c : w) ASSERT_TRUE(c.SendRaw(proto::Encode(proto::Shutdown{})).ok());
  Status done = t.Result(10);
  EXPECT_TRUE(done.ok()) << done.message();
}

TEST(TrackerElasticTest, AJoinerIsAnnouncedAndRankedAfterTheOthers) {
  RunningTracker t(Elastic(2));
  std::vector<FakeClient> w = Bootstrapped(t, 2, kToken);
  FakeClient joiner;
  ASSERT_TRUE(joiner.Connect("127.0.0.1", t.port()).ok());
  ASSERT_TRUE(joiner.SendHello(kToken, "join-a", "127.0.0.1", 7100).ok());
  for (int r = 0; r < 2; ++r) {  // every rank hears of it
    auto f = w[r].ReadFrame(5);
    ASSERT_TRUE(f.ok()) << f.status().message();
    EXPECT_EQ(f->header.kind, proto::Kind::kResizePending);
  }
  // At the agreed round boundary every rank relinks; the epoch adds the joiner as rank 2.
  for (int r = 0; r < 2; ++r) ASSERT_TRUE(w[r].SendRaw(proto::Encode(Recover(r, 8000 + r))).ok());
  for (int r = 0; r < 2; ++r) {
    auto a = w[r].ReadAssign(5);
    ASSERT_TRUE(a.ok()) << a.status().message();
    EXPECT_EQ(a->rank, r);
    EXPECT_EQ(a->world_size, 3);
    EXPECT_EQ(a->epoch, 1u);
  }
  auto a = joiner.ReadAssign(5);
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_EQ(a->rank, 2);
  EXPECT_EQ(a->world_size, 3);
  EXPECT_EQ(a->epoch, 1u);
  for (const proto::PeerAddress& p : a->connect_to) EXPECT_EQ(p.port, 8000 + p.rank);
  for (int r = 0; r < 2; ++r) ASSERT_TRUE(w[r].SendRaw(proto::Encode(proto::Shutdown{})).ok());
  ASSERT_TRUE(joiner.SendRaw(proto::Encode(proto::Shutdown{})).ok());
  Status done = t.Result(10);
  EXPECT_TRUE(done.ok()) << done.message();
}

// The next Assign on `c`, skipping ResizePending frames; counts them in *pending.
Result<proto::Assign> NextAssign(FakeClient& c, int* pending) {
  for (;;) {
    auto f = c.ReadFrame(5);
    if (!f.ok()) return f.status();
    if (f->header.kind == proto::Kind::kResizePending) {
      ++*pending;
      continue;
    }
    if (f->header.kind != proto::Kind::kAssign) {
      return Status::Protocol("got " + proto::KindName(f->header.kind));
    }
    return proto::DecodeAssign(f->payload);
  }
}

TEST(TrackerElasticTest, AJoinerWaitsOutAnEpochWithARestart) {
  TrackerOptions o = Elastic(3);
  o.max_attempts = 3;
  o.elastic_timeout_s = 10;
  RunningTracker t(o);
  std::vector<FakeClient> w = Bootstrapped(t, 3, kToken);
  w[1].Close();  // rank 1 dies; its restart replays from the others, so no join in this epoch
  FakeClient joiner;
  ASSERT_TRUE(joiner.Connect("127.0.0.1", t.port()).ok());
  ASSERT_TRUE(joiner.SendHello(kToken, "join-a", "127.0.0.1", 7100).ok());
  ASSERT_TRUE(w[0].SendRaw(proto::Encode(Recover(0, 8000))).ok());
  ASSERT_TRUE(w[2].SendRaw(proto::Encode(Recover(2, 8002))).ok());
  ASSERT_TRUE(w[1].Connect("127.0.0.1", t.port()).ok());
  proto::Hello h = Recover(-1, 8001, "1");
  h.attempt = 1;
  ASSERT_TRUE(w[1].SayHello(h, kToken).ok());
  for (int r = 0; r < 3; ++r) {
    int pending = 0;
    auto a = NextAssign(w[r], &pending);
    ASSERT_TRUE(a.ok()) << a.status().message();
    EXPECT_EQ(a->world_size, 3);
    EXPECT_EQ(a->epoch, 1u);
    auto again = w[r].ReadFrame(5);  // told again: the joiner still waits
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again->header.kind, proto::Kind::kResizePending) << "rank " << r;
  }
  for (int r = 0; r < 3; ++r) ASSERT_TRUE(w[r].SendRaw(proto::Encode(Recover(r, 9000 + r))).ok());
  for (int r = 0; r < 3; ++r) {
    int pending = 0;
    auto a = NextAssign(w[r], &pending);
    ASSERT_TRUE(a.ok()) << a.status().message();
    EXPECT_EQ(a->world_size, 4);
    EXPECT_EQ(a->epoch, 2u);
  }
  auto a = joiner.ReadAssign(5);
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_EQ(a->rank, 3);
  EXPECT_EQ(a->epoch, 2u);
}

TEST(TrackerElasticTest, AJoinerIsRefusedWithoutElasticOrWithATakenTaskId) {
  TrackerOptions plain = Elastic(2);
  plain.elastic = false;
  RunningTracker t(plain);
  std::vector<FakeClient> w = Bootstrapped(t, 2, kToken);
  FakeClient late;
  ASSERT_TRUE(late.Connect("127.0.0.1", t.port()).ok());
  ASSERT_TRUE(late.SendHello(kToken, "join-a", "127.0.0.1", 7100).ok());
  auto f = late.ReadFrame(5);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->header.kind, proto::Kind::kReject);
  RunningTracker e(Elastic(2));
  std::vector<FakeClient> v = Bootstrapped(e, 2, kToken);
  FakeClient twin;
  ASSERT_TRUE(twin.Connect("127.0.0.1", e.port()).ok());
  ASSERT_TRUE(twin.SendHello(kToken, "1", "127.0.0.1", 7100).ok());
  f = twin.ReadFrame(5);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->header.kind, proto::Kind::kReject);
}

}  // namespace
}  // namespace treering::testing
