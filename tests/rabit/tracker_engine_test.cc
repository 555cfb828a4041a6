// The socket engine bootstrapped by a real in-process TrackerServer: N ranks as threads, each
// starting a SocketEngine from parameters (no environment), running collectives, printing
// through the tracker and shutting down; and an Abort from the tracker stopping a blocked op.
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "engine_params.h"
#include "engines/socket/socket_engine.h"
#include "tracker/server.h"

namespace rabit::engine {
namespace {

EngineParams ParamsFor(std::uint16_t port, int task) {
  EngineParams p;
  p.tracker_uri = "127.0.0.1";
  p.tracker_port = port;
  p.job_token = "job-42";
  p.task_id = std::to_string(task);
  p.timeout_seconds = 10;
  p.bootstrap_timeout_seconds = 20;
  return p;
}

struct Tracker {
  explicit Tracker(int workers)
      : server([&] {
          treering::TrackerOptions o;
          o.num_workers = workers;
          o.token = "job-42";
          o.print = [this](const std::string& m) {
            std::lock_guard<std::mutex> lock(mu);
            printed.push_back(m);
          };
          return o;
        }()) {
    EXPECT_TRUE(server.Start().ok());
  }
  std::mutex mu;
  std::vector<std::string> printed;
  treering::TrackerServer server;
};

TEST(TrackerEngine, RanksBootstrapRunCollectivesAndShutDown) {
  constexpr int kWorld = 5;
  Tracker tracker(kWorld);
  treering::Status served;
  std::thread serve([&] { served = tracker.server.Wait(); });
  std::vector<int> ranks(kWorld, -1);
  std::vector<std::string> errors(kWorld);
  std::vector<std::thread> workers;
  for (int t = 0; t < kWorld; ++t) {
    workers.emplace_back([&, t] {
      auto engine = SocketEngine::Start(ParamsFor(tracker.server.port(), t));
      if (!engine.ok()) {
        errors[t] = engine.status().message();
        return;
      }
      Engine& e = *engine.value();
      ranks[t] = e.Rank();
      std::int64_t sum = e.Rank() + 1;
      Status s = e.Allreduce(&sum, 1, DataType::kInt64, OpKind::kSum, nullptr);
      if (s.ok() && sum != kWorld * (kWorld + 1) / 2) s = Status::Internal("wrong sum");
      std::uint64_t word = e.Rank() == 3 ? 0xfeedu : 0;
      if (s.ok()) s = e.Broadcast(&word, sizeof(word), 3);
      if (s.ok() && word != 0xfeedu) s = Status::Internal("wrong broadcast");
      if (s.ok() && e.Rank() == 0) s = e.TrackerPrint("hello from rank 0");
      if (s.ok()) s = e.Shutdown();
      if (!s.ok()) errors[t] = s.message();
    });
  }
  for (auto& w : workers) w.join();
  serve.join();
  for (int t = 0; t < kWorld; ++t) EXPECT_EQ(errors[t], "") << "task " << t;
  EXPECT_EQ(std::set<int>(ranks.begin(), ranks.end()), (std::set<int>{0, 1, 2, 3, 4}));
  EXPECT_TRUE(served.ok()) << served.message();
  ASSERT_EQ(tracker.printed.size(), 1u);
  EXPECT_EQ(tracker.printed[0], "hello from rank 0");
}

TEST(TrackerEngine, TrackerAbortStopsABlockedCollectiveWithTheReason) {
  Tracker tracker(2);
  std::thread serve([&] { (void)tracker.server.Wait(); });
  std::vector<std::unique_ptr<Engine>> engines(2);
  std::vector<std::thread> starters;
  for (int t = 0; t < 2; ++t) {
    starters.emplace_back([&, t] {
      auto e = SocketEngine::Start(ParamsFor(tracker.server.port(), t));
      if (e.ok()) engines[t] = std::move(e.value());
    });
  }
  for (auto& s : starters) s.join();
  ASSERT_TRUE(engines[0] && engines[1]);
  Engine& lonely = engines[0]->Rank() == 0 ? *engines[0] : *engines[1];
  std::thread aborter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    tracker.server.Abort("operator pressed stop");
  });
  const auto start = std::chrono::steady_clock::now();
  int x = 1;  // the other rank never joins this op; only the tracker can end the wait
  Status s = lonely.Allreduce(&x, 1, DataType::kInt32, OpKind::kSum, nullptr);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(s.code(), treering::StatusCode::kAborted) << s.message();
  EXPECT_NE(s.message().find("operator pressed stop"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("Allreduce(sum, int32, 4 B) op #1"), std::string::npos) << s.message();
  aborter.join();
  engines.clear();
  tracker.server.Stop();
  serve.join();
}

TEST(EngineParams, EnvironmentThenArgumentsLaterWins) {
  setenv("DMLC_TRACKER_URI", "10.0.0.1", 1);
  setenv("DMLC_TRACKER_PORT", "9100", 1);
  auto p = ReadEngineParams({{"rabit_tracker_port", "9200"},
                             {"rabit_reduce_ring_mincount", "1M"},
                             {"DMLC_NUM_ATTEMPT", "2"},
                             {"rabit_timeout", "2.5"},
                             {"rabit_reduce_pair_maxcount", "512K"},
                             {"unrelated", "kept out"}});
  unsetenv("DMLC_TRACKER_URI");
  unsetenv("DMLC_TRACKER_PORT");
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(p->tracker_uri, "10.0.0.1");
  EXPECT_EQ(p->tracker_port, 9200);
  EXPECT_EQ(p->ring_min_bytes, 1u << 20);
  EXPECT_EQ(p->pair_max_bytes, 512u << 10);
  EXPECT_EQ(p->num_attempt, 2u);
  EXPECT_DOUBLE_EQ(p->timeout_seconds, 2.5);
}

// treering-submit pins workers and says so (TREERING_PINNED=1, a fact); the engine's parameter
// code turns that into the pair exchange below the pair halving (pair_max_bytes = 1G). An
// explicit rabit_reduce_pair_maxcount, argument or environment, wins whatever the order. The
// ring's replacement at two ranks has its own key.
TEST(EngineParams, PinnedWorkersDefaultToThePairExchangeExplicitKeysWin) {
  auto defaults = ReadEngineParams({});
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->pair_max_bytes, 0u);
  EXPECT_EQ(defaults->pair_min_bytes, 1u << 20);
  EXPECT_FALSE(defaults->pinned);
  setenv("TREERING_PINNED", "1", 1);
  auto pinned = ReadEngineParams({{"rabit_reduce_pair_mincount", "4M"}});
  auto overridden = ReadEngineParams({{"rabit_reduce_pair_maxcount", "0"}});
  setenv("TREERING_REDUCE_PAIR_MAXCOUNT", "64K", 1);
  auto by_environment = ReadEngineParams({});
  unsetenv("TREERING_REDUCE_PAIR_MAXCOUNT");
  unsetenv("TREERING_PINNED");
  ASSERT_TRUE(pinned.ok() && overridden.ok() && by_environment.ok());
  EXPECT_TRUE(pinned->pinned);
  EXPECT_EQ(pinned->pair_max_bytes, 1u << 30);
  EXPECT_EQ(pinned->pair_min_bytes, 4u << 20);
  EXPECT_EQ(overridden->pair_max_bytes, 0u);
  EXPECT_EQ(by_environment->pair_max_bytes, 64u << 10);
  auto argument = ReadEngineParams({{"rabit_pinned", "1"}, {"rabit_reduce_pair_maxcount", "8K"}});
  ASSERT_TRUE(argument.ok());
  EXPECT_EQ(argument->pair_max_bytes, 8u << 10);
  EXPECT_EQ(ReadEngineParams({{"rabit_pinned", "1"}})->pair_max_bytes, 1u << 30);
  EXPECT_EQ(ReadEngineParams({{"rabit_pinned", "2"}}).status().key(), "rabit_pinned");
}

// Both TCP engines (socket and robust) build their collective tuning from the same function:
// every algorithm switch point set by a key must reach it (the robust engine once dropped the
// pair keys).
TEST(EngineParams, EveryCollectiveKeyReachesTheCollectiveOptions) {
  auto p = ReadEngineParams({{"rabit_timeout", "7"},
                             {"rabit_reduce_ring_mincount", "2M"},
                             {"rabit_reduce_pair_mincount", "3M"},
                             {"rabit_reduce_pair_maxcount", "4K"},
                             {"rabit_reduce_halving_mincount", "5M"},
                             {"rabit_reduce_pair_halving_mincount", "6M"},
                             {"rabit_spin_us", "9"}});
  ASSERT_TRUE(p.ok()) << p.status().message();
  const transport::CollectiveOptions o = CollectiveOptionsFor(p.value());
  EXPECT_DOUBLE_EQ(o.timeout_seconds, 7);
  EXPECT_EQ(o.ring_min_bytes, 2u << 20);
  EXPECT_EQ(o.pair_min_bytes, 3u << 20);
  EXPECT_EQ(o.pair_max_bytes, 4u << 10);
  EXPECT_EQ(o.halving_min_bytes, 5u << 20);
  EXPECT_EQ(o.pair_halving_min_bytes, 6u << 20);
  EXPECT_EQ(o.spin_microseconds, 9);
  EXPECT_EQ(ReadEngineParams({{"rabit_reduce_halving_mincount", "lots"}}).status().code(),
            treering::StatusCode::kInvalidInput);
  const auto bad = ReadEngineParams({{"rabit_reduce_pair_halving_mincount", "-1"}});
  EXPECT_EQ(bad.status().code(), treering::StatusCode::kInvalidInput);
  EXPECT_NE(bad.status().message().find("rabit_reduce_pair_halving_mincount"), std::string::npos)
      << bad.status().message();
  EXPECT_EQ(ReadEngineParams({}).value().pair_halving_min_bytes, 256u << 10);
}

TEST(EngineParams, BadValuesNameTheKey) {
  auto p = ReadEngineParams({{"rabit_timeout", "soon"}});
  EXPECT_EQ(p.status().code(), treering::StatusCode::kInvalidInput);
  EXPECT_NE(p.status().message().find("rabit_timeout"), std::string::npos);
  p = ReadEngineParams({{"rabit_engine", "carrier-pigeon"}});
  EXPECT_NE(p.status().message().find("socket, robust, mpi, single or auto"), std::string::npos);
  p = ReadEngineParams({{"rabit_tracker_port", "70000"}});
  EXPECT_EQ(p.status().code(), treering::StatusCode::kInvalidInput);
}

TEST(EngineParams, NullTrackerUriMeansNone) {
  auto p = ReadEngineParams({{"rabit_tracker_uri", "NULL"}});
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(p->tracker_uri.empty());
}

}  // namespace
}  // namespace rabit::engine
