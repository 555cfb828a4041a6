// The tracker end to end with fake native workers on raw sockets: the happy path (ranks by
// task id, consistent Assign messages, prints, shutdown) and failures (killed worker, Error
// report, bootstrap timeout, Stop), over IPv4 and IPv6.
#include <map>
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "fake_client.h"
#include "running_tracker.h"
#include "tracker/topology.h"

namespace treering::testing {
namespace {

constexpr char kToken[] = "job-token";

TrackerOptions Options(int n, std::string host = "127.0.0.1") {
  TrackerOptions o;
  o.num_workers = n;
  o.host_ip = std::move(host);
  o.token = kToken;
  o.bootstrap_timeout_s = 20;
  o.hello_timeout_s = 5;
  return o;
}

// Connects N workers with the given task ids; worker i advertises host "w<i>", port 7000 + i.
std::vector<FakeClient> JoinWorkers(RunningTracker& t, const std::vector<std::string>& task_ids,
                                    const std::string& host = "127.0.0.1") {
  std::vector<FakeClient> workers(task_ids.size());
  for (std::size_t i = 0; i < task_ids.size(); ++i) {
    EXPECT_TRUE(workers[i].Connect(host, t.port()).ok());
    EXPECT_TRUE(workers[i]
                    .SendHello(kToken, task_ids[i], "w" + std::to_string(i),
                               static_cast<std::uint16_t>(7000 + i))
                    .ok());
  }
  return workers;
}

std::string AbortReason(FakeClient& c) {
  auto f = c.ReadFrame(10);
  if (!f.ok()) return "no frame: " + f.status().message();
  if (f->header.kind != proto::Kind::kAbort) return "got " + proto::KindName(f->header.kind);
  return proto::DecodeAbort(f->payload)->reason;
}

TEST(TrackerServerTest, HappyPathAssignsByTaskIdAndLinksAreConsistent) {
  RunningTracker t(Options(5));
  ASSERT_TRUE(t.start_status().ok()) << t.start_status().message();
  // Numeric order: "10" sorts after "2".
  const std::vector<std::string> ids{"10", "2", "0", "3", "1"};
  const std::map<std::string, int> expected_rank{{"0", 0}, {"1", 1}, {"2", 2}, {"3", 3}, {"10", 4}};
  auto workers = JoinWorkers(t, ids);
  std::map<int, proto::Assign> by_rank;
  std::map<int, std::size_t> worker_of_rank;
  for (std::size_t i = 0; i < workers.size(); ++i) {
    auto a = workers[i].ReadAssign();
    ASSERT_TRUE(a.ok()) << a.status().message();
    EXPECT_EQ(a->rank, expected_rank.at(ids[i]));
    EXPECT_EQ(a->world_size, 5);
    by_rank[a->rank] = a.value();
    worker_of_rank[a->rank] = i;
  }
  const auto topology = topo::BuildTopology(5);
  int dials = 0, accepts = 0;
  for (auto& [rank, a] : by_rank) {
    EXPECT_EQ(a.parent, topology[rank].parent);
    EXPECT_EQ(a.tree_neighbours, topology[rank].tree_neighbours);
    EXPECT_EQ(a.ring_next, (rank + 1) % 5);
    for (const proto::PeerAddress& p : a.connect_to) {
      EXPECT_LT(p.rank, rank);  // the higher rank dials
      const std::size_t w = worker_of_rank[p.rank];
      EXPECT_EQ(p.host, "w" + std::to_string(w));  // exactly what that peer advertised
      EXPECT_EQ(p.port, 7000 + w);
    }
    dials += static_cast<int>(a.connect_to.size());
    accepts += static_cast<int>(a.num_accept);
  }
  EXPECT_EQ(dials, accepts);  // every dial has an accepting peer
  ASSERT_TRUE(workers[worker_of_rank[0]].SendRaw(proto::Encode(proto::Print{"[0]\tx:1\n"})).ok());
  ASSERT_TRUE(workers[worker_of_rank[3]].SendRaw(proto::Encode(proto::Print{"hello"})).ok());
  for (auto& w : workers) ASSERT_TRUE(w.SendRaw(proto::Encode(proto::Shutdown{})).ok());
  EXPECT_TRUE(t.Result(10).ok()) << t.Result(10).message();
  EXPECT_EQ(t.prints(), (std::vector<std::string>{"[0]\tx:1", "[rank 3] hello"}));
}

TEST(TrackerServerTest, NonNumericTaskIdsSortLexically) {
  RunningTracker t(Options(3));
  auto workers = JoinWorkers(t, {"b", "c", "a10"});
  std::vector<int> ranks;
  for (auto& w : workers) ranks.push_back(w.ReadAssign()->rank);
  EXPECT_EQ(ranks, (std::vector<int>{1, 2, 0}));
}

TEST(TrackerServerTest, WithoutTaskIdsRanksFollowArrival) {
  RunningTracker t(Options(3));
  std::vector<FakeClient> workers;
  for (int i = 0; i < 3; ++i) {
    workers.push_back(std::move(JoinWorkers(t, {""}).front()));
    std::this_thread::sleep_for(std::chrono::milliseconds(30));  // a definite arrival order
  }
  for (int i = 0; i < 3; ++i) EXPECT_EQ(workers[i].ReadAssign()->rank, i);
}

TEST(TrackerServerTest, KilledWorkerAbortsTheOthersAndNamesTheRank) {
  RunningTracker t(Options(3));
  auto workers = JoinWorkers(t, {"0", "1", "2"});
  for (auto& w : workers) ASSERT_TRUE(w.ReadAssign().ok());
  workers[1].Close();  // rank 1 dies before Shutdown
  EXPECT_NE(AbortReason(workers[0]).find("rank 1"), std::string::npos);
  EXPECT_NE(AbortReason(workers[2]).find("rank 1"), std::string::npos);
  const Status s = t.Result(10);
  EXPECT_EQ(s.code(), StatusCode::kAborted);
  EXPECT_NE(s.message().find("rank 1"), std::string::npos) << s.message();
}

TEST(TrackerServerTest, ErrorReportAbortsTheJob) {
  RunningTracker t(Options(2));
  auto workers = JoinWorkers(t, {"0", "1"});
  for (auto& w : workers) ASSERT_TRUE(w.ReadAssign().ok());
  ASSERT_TRUE(workers[0].SendRaw(proto::Encode(proto::ErrorReport{"disk full"})).ok());
  EXPECT_NE(AbortReason(workers[1]).find("disk full"), std::string::npos);
  const Status s = t.Result(10);
  EXPECT_NE(s.message().find("rank 0"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("disk full"), std::string::npos) << s.message();
}

// Three workers join (advertised hosts w0..w2) and worker `reporter` reports `report` as its
// error, blaming `ranks`: the job's result.
Status ResultOfReport(int reporter, const std::string& report, std::vector<std::int32_t> ranks) {
  RunningTracker t(Options(3));
  auto workers = JoinWorkers(t, {"0", "1", "2"});
  for (auto& w : workers) {
    auto assigned = w.ReadAssign();
    if (!assigned.ok()) return assigned.status();
  }
  Status sent =
      workers[reporter].SendRaw(proto::Encode(proto::ErrorReport{report, std::move(ranks)}));
  if (!sent.ok()) return sent;
  return t.Result(10);
}

// On a cluster the failure names the machine of the reporter and of each rank its report
// blames (where each joined from).
TEST(TrackerServerTest, FailureNamesTheHostsOfTheRanksItBlames) {
  const Status s =
      ResultOfReport(0, "rank 0: Allreduce op #7: no progress; rank 2 never started this op", {2});
  EXPECT_NE(s.message().find("never started this op [rank 0 on w0, rank 2 on w2]"),
            std::string::npos)
      << s.message();
  EXPECT_EQ(s.message().find("rank 1 on"), std::string::npos) << s.message();
}

// The hosts come from the report's rank field: the reporter's first, then each blamed rank,
// once each; a number beyond the world is no rank.
TEST(TrackerServerTest, FailureHostsListEachRankOnceReporterFirst) {
  const Status s = ResultOfReport(1, "link to rank 0 failed", {0, 1, 0, 17, -1});
  const std::string tail = "link to rank 0 failed [rank 1 on w1, rank 0 on w0]";
  ASSERT_GE(s.message().size(), tail.size()) << s.message();
  EXPECT_EQ(s.message().substr(s.message().size() - tail.size()), tail) << s.message();
  EXPECT_EQ(s.message().rfind("rank 1 failed: ", 0), 0u) << s.message();
}

// Rank numbers in the text are only text: without the field the tracker names no other rank.
TEST(TrackerServerTest, RanksInTheTextAloneAreNotBlamed) {
  const Status s = ResultOfReport(0, "rank 2 and rank 7 never started this op", {});
  EXPECT_NE(s.message().find("never started this op [rank 0 on w0]"), std::string::npos)
      << s.message();
  EXPECT_EQ(s.message().find("rank 2 on"), std::string::npos) << s.message();
  EXPECT_EQ(s.message().find("rank 7 on"), std::string::npos) << s.message();
}

TEST(TrackerServerTest, BootstrapTimeoutFailsAndAbortsWaitingWorkers) {
  TrackerOptions o = Options(2);
  o.bootstrap_timeout_s = 0.5;
  RunningTracker t(o);
  auto workers = JoinWorkers(t, {"0"});
  EXPECT_NE(AbortReason(workers[0]).find("bootstrap timeout"), std::string::npos);
  const Status s = t.Result(10);
  EXPECT_EQ(s.code(), StatusCode::kTimeout);
  EXPECT_NE(s.message().find("1 of 2"), std::string::npos) << s.message();
}

TEST(TrackerServerTest, StopEndsWaitWithAborted) {
  RunningTracker t(Options(2));
  t.server().Stop();
  EXPECT_EQ(t.Result(10).code(), StatusCode::kAborted);
}

TEST(TrackerServerTest, AbortFromTheLauncherReachesWorkers) {
  RunningTracker t(Options(2));
  auto workers = JoinWorkers(t, {"0", "1"});
  for (auto& w : workers) ASSERT_TRUE(w.ReadAssign().ok());
  t.server().Abort("rank 1 exited with code 3");
  EXPECT_EQ(AbortReason(workers[0]), "rank 1 exited with code 3");
  EXPECT_NE(t.Result(10).message().find("code 3"), std::string::npos);
}

TEST(TrackerServerTest, WorksOverIpv6) {
  RunningTracker t(Options(2, "::1"));
  ASSERT_TRUE(t.start_status().ok()) << t.start_status().message();
  auto workers = JoinWorkers(t, {"0", "1"}, "::1");
  auto a0 = workers[0].ReadAssign();
  auto a1 = workers[1].ReadAssign();
  ASSERT_TRUE(a0.ok() && a1.ok());
  ASSERT_EQ(a1->connect_to.size(), 1u);
  EXPECT_EQ(a1->connect_to[0].port, 7000);
  for (auto& w : workers) ASSERT_TRUE(w.SendRaw(proto::Encode(proto::Shutdown{})).ok());
  EXPECT_TRUE(t.Result(10).ok());
}

TEST(TrackerServerTest, BadOptionsAreInvalidInput) {
  TrackerOptions o = Options(0);
  EXPECT_EQ(TrackerServer(o).Start().code(), StatusCode::kInvalidInput);
  o = Options(1, "not-an-ip");
  EXPECT_EQ(TrackerServer(o).Start().code(), StatusCode::kInvalidInput);
}

}  // namespace
}  // namespace treering::testing
