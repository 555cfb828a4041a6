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
          treering::tracker::TrackerOptions o;
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
  treering::tracker::TrackerServer server;
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
                             {"rabit_link_latency_us", "50"},
                             {"unrelated", "kept out"}});
  unsetenv("DMLC_TRACKER_URI");
  unsetenv("DMLC_TRACKER_PORT");
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(p->tracker_uri, "10.0.0.1");
  EXPECT_EQ(p->tracker_port, 9200);
  EXPECT_EQ(p->ring_min_bytes, std::optional<std::size_t>(1u << 20));
  EXPECT_DOUBLE_EQ(p->link_latency_us, 50);
  EXPECT_EQ(p->num_attempt, 2u);
  EXPECT_DOUBLE_EQ(p->timeout_seconds, 2.5);
}

// The launcher's placement is no engine parameter (the link model picks the algorithms; a
// parsed-but-never-read rabit_pinned was removed), and the removed world-size keys (pair, pair
// halving, halving) are typos now, with the nearest key named.
TEST(EngineParams, NoPinnedKeyAndTheOldWorldSizeKeysAreGone) {
  auto defaults = ReadEngineParams({});
  ASSERT_TRUE(defaults.ok());
  EXPECT_FALSE(defaults->allreduce.has_value());
  EXPECT_FALSE(defaults->ring_min_bytes.has_value());
  EXPECT_EQ(ReadEngineParams({{"rabit_pinned", "1"}}).status().code(),
            treering::StatusCode::kInvalidInput);
  for (const char* old : {"rabit_reduce_pair_maxcount", "rabit_reduce_pair_halving_mincount",
                          "rabit_reduce_halving_mincount"}) {
    const auto gone = ReadEngineParams({{old, "1M"}});
    EXPECT_EQ(gone.status().code(), treering::StatusCode::kInvalidInput) << old;
    EXPECT_NE(gone.status().message().find("unknown key"), std::string::npos) << old;
  }
}

// Both TCP engines (socket and robust) build their collective tuning from the same function:
// every key of the Allreduce choice must reach it (the robust engine once dropped some).
TEST(EngineParams, EveryCollectiveKeyReachesTheCollectiveOptions) {
  auto p = ReadEngineParams({{"rabit_timeout", "7"},
                             {"rabit_reduce_ring_mincount", "2M"},
                             {"rabit_link_latency_us", "50"},
                             {"rabit_link_bandwidth_mbps", "1000"},
                             {"rabit_allreduce", "halving"},
                             {"rabit_spin_us", "9"}});
  ASSERT_TRUE(p.ok()) << p.status().message();
  const collective::CollectiveOptions o = CollectiveOptionsFor(p.value());
  EXPECT_DOUBLE_EQ(o.timeout_seconds, 7);
  EXPECT_EQ(o.allreduce.ring_min_bytes, std::optional<std::size_t>(2u << 20));
  EXPECT_DOUBLE_EQ(o.allreduce.link.latency_seconds, 50e-6);
  EXPECT_DOUBLE_EQ(o.allreduce.link.bytes_per_second, 125e6);
  EXPECT_EQ(o.allreduce.forced, collective::AllreduceAlgorithm::kHalvingDoubling);
  EXPECT_FALSE(o.allreduce.recursive_links);  // until the engine has linked the partners
  EXPECT_EQ(o.spin_microseconds, 9);
  for (const char* name : {"auto", "tree", "ring", "doubling", "halving"}) {
    EXPECT_TRUE(ReadEngineParams({{"rabit_allreduce", name}}).ok()) << name;
  }
  EXPECT_FALSE(ReadEngineParams({{"rabit_allreduce", "auto"}})->allreduce.has_value());
  EXPECT_FALSE(ReadEngineParams({{"rabit_reduce_ring_mincount", "auto"}})->ring_min_bytes);
  for (const auto& [key, value] :
       std::vector<std::pair<std::string, std::string>>{{"rabit_allreduce", "pair"},
                                                        {"rabit_link_latency_us", "0"},
                                                        {"rabit_link_latency_us", "fast"},
                                                        {"rabit_link_bandwidth_mbps", "-1"},
                                                        {"rabit_reduce_ring_mincount", "lots"}}) {
    const auto bad = ReadEngineParams({{key, value}});
    EXPECT_EQ(bad.status().code(), treering::StatusCode::kInvalidInput) << key << "=" << value;
    EXPECT_NE(bad.status().message().find(key), std::string::npos) << bad.status().message();
  }
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
