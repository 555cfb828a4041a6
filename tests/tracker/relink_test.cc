// Client side of recovery against a real in-process tracker (threads as ranks): a rank "dies"
// (drops its tracker connection and every link), a replacement bootstraps with attempt 1 and
// the same task id, the survivors relink through the tracker, and an allreduce over the new
// links gives the right sum. Without a replacement the survivors' relink fails naming the rank.
#include <barrier>
#include <optional>
#include <thread>

#include <gtest/gtest.h>

#include "bootstrap/tracker_bootstrap.h"
#include "collective/communicator.h"
#include "running_tracker.h"

namespace rabit::bootstrap {

using collective::CollectiveOptions;
using collective::Communicator;
using transport::AbortWatch;
using transport::DeadlineAfter;
using transport::LinkSet;
using transport::TcpSocket;
using treering::Result;
using treering::Status;

namespace {

constexpr int kWorld = 4;

treering::tracker::TrackerOptions Options(double recovery_s) {
  treering::tracker::TrackerOptions o;
  o.num_workers = kWorld;
  o.token = "relink-token";
  o.max_attempts = 3;
  o.recovery_timeout_s = recovery_s;
  return o;
}

BootstrapConfig ConfigFor(std::uint16_t port, int task, std::uint32_t attempt) {
  BootstrapConfig c;
  c.tracker_host = "127.0.0.1";
  c.tracker_port = port;
  c.token = "relink-token";
  c.task_id = std::to_string(task);
  c.attempt = attempt;
  c.world_size = kWorld;
  c.timeout_seconds = 30;
  return c;
}

// Sum over ranks of (rank + 1) * scale, through a fresh Communicator on `links`.
Result<std::int64_t> SumOver(LinkSet links, AbortWatch* watch, std::int64_t scale) {
  CollectiveOptions options;
  options.timeout_seconds = 30;
  auto comm = Communicator::Create(std::move(links), options, watch);
  if (!comm.ok()) return comm.status();
  std::int64_t v = (comm.value()->rank() + 1) * scale;
  Status s = comm.value()->Allreduce(1, &v, 1, DataType::kInt64, OpKind::kSum);
  if (!s.ok()) return s;
  comm.value()->Close();
  return v;
}

TEST(RelinkTest, ReplacementAndSurvivorsRelinkAndReduceCorrectly) {
  treering::testing::RunningTracker tracker(Options(30));
  ASSERT_TRUE(tracker.start_status().ok());
  constexpr int kDead = 2;
  std::barrier phase(kWorld);
  std::vector<std::string> errors(kWorld);
  std::vector<std::int64_t> before(kWorld), after(kWorld);
  std::vector<int> rank_after(kWorld, -1);
  auto worker = [&](int task) {
    auto boot = BootstrapThroughTracker(ConfigFor(tracker.port(), task, 0));
    if (!boot.ok()) {
      errors[task] = boot.status().message();
      phase.arrive_and_drop();
      return;
    }
    const int rank = boot->links.topology().rank;
    auto sum = SumOver(std::move(boot->links), boot->tracker.get(), 1);
    before[task] = sum.ok() ? sum.value() : -1;
    phase.arrive_and_wait();  // every rank finished the first allreduce
    std::optional<LinkSet> links;
    std::unique_ptr<TrackerClient> client;
    if (task == kDead) {
      boot->tracker.reset();  // the process dies: its tracker connection drops
      auto again = BootstrapThroughTracker(ConfigFor(tracker.port(), task, 1));
      if (!again.ok()) {
        errors[task] = again.status().message();
        return;
      }
      client = std::move(again->tracker);
      links = std::move(again->links);
    } else {
      auto relinked =
          RelinkThroughTracker(boot->tracker.get(), ConfigFor(tracker.port(), task, 0), rank);
      if (!relinked.ok()) {
        errors[task] = relinked.status().message();
        return;
      }
      client = std::move(boot->tracker);
      links = std::move(relinked.value());
    }
    rank_after[task] = links->topology().rank;
    auto second = SumOver(std::move(*links), client.get(), 10);
    if (!second.ok()) {
      errors[task] = second.status().message();
      return;
    }
    after[task] = second.value();
    Status bye = client->Shutdown();
    if (!bye.ok()) errors[task] = bye.message();
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kWorld; ++t) threads.emplace_back(worker, t);
  for (auto& th : threads) th.join();
  for (int t = 0; t < kWorld; ++t) {
    EXPECT_EQ(errors[t], "") << "task " << t;
    EXPECT_EQ(before[t], 10) << "task " << t;
    EXPECT_EQ(after[t], 100) << "task " << t;
    EXPECT_EQ(rank_after[t], t) << "ranks follow task ids and survive the restart";
  }
  treering::Status done = tracker.Result(30);
  EXPECT_TRUE(done.ok()) << done.message();
}

// Two ranks killed together: the second may send its recover Hello and then die, so the epoch
// completes with a dead member. The survivors must not wait on it forever: their linking gives
// up after link_timeout_seconds and they ask again; the next epoch (with the dead rank's
// replacement) links and the allreduce is right.
TEST(RelinkTest, RankDyingAfterItsRecoverHelloMakesTheNextEpochRun) {
  treering::testing::RunningTracker tracker(Options(30));
  ASSERT_TRUE(tracker.start_status().ok());
  constexpr int kDead = 2;
  std::barrier phase(kWorld);
  std::vector<std::string> errors(kWorld);
  std::vector<std::int64_t> after(kWorld);
  auto worker = [&](int task) {
    auto boot = BootstrapThroughTracker(ConfigFor(tracker.port(), task, 0));
    phase.arrive_and_wait();
    if (!boot.ok()) {
      errors[task] = boot.status().message();
      return;
    }
    boot->links.CloseAll();
    std::unique_ptr<TrackerClient> client = std::move(boot->tracker);
    std::optional<LinkSet> links;
    if (task == kDead) {
      // Asks to relink with a port nobody listens on, gets epoch 1's Assign, and dies.
      auto closed = TcpSocket::Listen(0);
      {
        treering::proto::Hello h;
        h.task_id = std::to_string(task);
        h.command = treering::proto::Command::kRecover;
        h.rank = task;
        h.world_size = kWorld;
        h.host = "127.0.0.1";
        h.port = closed->port();
        auto assign = client->Join(h, DeadlineAfter(30));
        if (!assign.ok() || assign->epoch != 1) {
          errors[task] = "no epoch-1 Assign: " + assign.status().message();
          return;
        }
      }
      client.reset();
      closed->Close();
      auto again = BootstrapThroughTracker(ConfigFor(tracker.port(), task, 1));
      if (!again.ok()) {
        errors[task] = again.status().message();
        return;
      }
      client = std::move(again->tracker);
      links = std::move(again->links);
      auto sum = SumOver(std::move(*links), client.get(), 10);
      if (!sum.ok()) {
        errors[task] = sum.status().message();
        return;
      }
      after[task] = sum.value();
    } else {
      // As the robust engine does: a link failure in the first collective after a relink (a
      // peer linked in an epoch that others abandoned) means relink again.
      BootstrapConfig config = ConfigFor(tracker.port(), task, 0);
      config.link_timeout_seconds = 2;
      for (int tries = 0; tries < 5 && after[task] == 0; ++tries) {
        auto relinked = RelinkThroughTracker(client.get(), config, task);
        if (!relinked.ok()) {
          errors[task] = relinked.status().message();
          return;
        }
        auto sum = SumOver(std::move(relinked.value()), client.get(), 10);
        if (sum.ok())
          after[task] = sum.value();
        else if (sum.status().code() != treering::StatusCode::kNetwork) {
          errors[task] = sum.status().message();
          return;
        }
      }
    }
    Status bye = client->Shutdown();
    if (!bye.ok()) errors[task] = bye.message();
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kWorld; ++t) threads.emplace_back(worker, t);
  for (auto& th : threads) th.join();
  for (int t = 0; t < kWorld; ++t) {
    EXPECT_EQ(errors[t], "") << "task " << t;
    EXPECT_EQ(after[t], 100) << "task " << t;
  }
  treering::Status done = tracker.Result(30);
  EXPECT_TRUE(done.ok()) << done.message();
}

TEST(RelinkTest, WithoutTheReplacementSurvivorsFailNamingTheRank) {
  treering::testing::RunningTracker tracker(Options(1.0));
  ASSERT_TRUE(tracker.start_status().ok());
  constexpr int kDead = 3;
  std::vector<std::string> errors(kWorld);
  std::barrier phase(kWorld);
  auto worker = [&](int task) {
    auto boot = BootstrapThroughTracker(ConfigFor(tracker.port(), task, 0));
    phase.arrive_and_wait();
    if (!boot.ok()) {
      errors[task] = boot.status().message();
      return;
    }
    if (task == kDead) return;  // dies, never restarted
    auto relinked = RelinkThroughTracker(boot->tracker.get(), ConfigFor(tracker.port(), task, 0),
                                         boot->links.topology().rank);
    errors[task] = relinked.ok() ? "relinked without rank 3" : relinked.status().message();
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kWorld; ++t) threads.emplace_back(worker, t);
  for (auto& th : threads) th.join();
  for (int t = 0; t < kDead; ++t) {
    EXPECT_NE(errors[t].find("rank 3 did not rejoin"), std::string::npos) << errors[t];
  }
  treering::Status done = tracker.Result(30);
  EXPECT_EQ(done.code(), treering::StatusCode::kTimeout) << done.message();
}

}  // namespace
}  // namespace rabit::bootstrap
