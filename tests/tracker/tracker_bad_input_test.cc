// The tracker must survive every kind of bad client (each is logged and dropped or rejected)
// and still serve the real job that runs alongside them.
#include <thread>

#include <gtest/gtest.h>

#include "fake_client.h"
#include "running_tracker.h"

namespace treering::testing {
namespace {

constexpr char kToken[] = "job-token";

TrackerOptions Options(int n) {
  TrackerOptions o;
  o.num_workers = n;
  o.token = kToken;
  o.bootstrap_timeout_s = 30;
  o.hello_timeout_s = 0.5;  // short, so the silent-client cases finish quickly
  return o;
}

std::string RejectReason(FakeClient& c) {
  auto f = c.ReadFrame(5);
  if (!f.ok()) return "no frame: " + f.status().message();
  if (f->header.kind != proto::Kind::kReject) return "got " + proto::KindName(f->header.kind);
  return proto::DecodeReject(f->payload)->reason;
}

FakeClient Connected(RunningTracker& t) {
  FakeClient c;
  EXPECT_TRUE(c.Connect("127.0.0.1", t.port()).ok());
  return c;
}

std::vector<std::uint8_t> HelloBytes(const std::string& task) {
  proto::Hello h;
  h.task_id = task;
  h.host = "127.0.0.1";
  h.port = 9999;
  return proto::Encode(h);
}

// Runs the real 2-worker job to completion; returns the tracker's result.
Status RunRealJob(RunningTracker& t, std::vector<FakeClient>& workers) {
  for (auto& w : workers) {
    auto a = w.ReadAssign();
    if (!a.ok()) return a.status();
  }
  for (auto& w : workers) {
    Status s = w.SendRaw(proto::Encode(proto::Shutdown{}));
    if (!s.ok()) return s;
  }
  return t.Result(10);
}

// Two real workers (tasks "0" and "1") join and run the job; the tracker's result.
Status JoinAndRunRealJob(RunningTracker& t) {
  std::vector<FakeClient> workers;
  for (const char* task : {"0", "1"}) {
    workers.push_back(Connected(t));
    Status s = workers.back().SendHello(kToken, task, "127.0.0.1", 9999);
    if (!s.ok()) return s;
  }
  return RunRealJob(t, workers);
}

TEST(TrackerBadInputTest, JunkClientsAreDroppedAndTheJobStillRuns) {
  RunningTracker t(Options(2));
  // Garbage, an HTTP request, a wrong magic: closed without a reply.
  FakeClient garbage = Connected(t), http = Connected(t), magic = Connected(t);
  ASSERT_TRUE(garbage.SendRaw({0xde, 0xad, 0xbe, 0xef, 1, 2, 3}).ok());
  const std::string get = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
  ASSERT_TRUE(http.SendRaw({get.begin(), get.end()}).ok());
  auto bad_magic = HelloBytes("9");
  bad_magic[0] = 'X';
  ASSERT_TRUE(magic.SendRaw(bad_magic).ok());
  // A wrong version (1: a worker that would send the token) and a wrong token get a Reject
  // naming the problem.
  FakeClient version = Connected(t), token = Connected(t);
  auto v1 = HelloBytes("8");
  v1[4] = 1;
  ASSERT_TRUE(version.SendRaw(v1).ok());
  ASSERT_TRUE(token.SendHello("wrong", "7", "127.0.0.1", 9999).ok());
  EXPECT_NE(RejectReason(version).find("version 1"), std::string::npos);
  EXPECT_NE(RejectReason(token).find("token"), std::string::npos);
  EXPECT_TRUE(garbage.WaitClosed(5));
  EXPECT_TRUE(http.WaitClosed(5));
  EXPECT_TRUE(magic.WaitClosed(5));

  const Status job = JoinAndRunRealJob(t);
  EXPECT_TRUE(job.ok()) << job.message();
}

TEST(TrackerBadInputTest, SilentAndHalfSentClientsTimeOutOrAreForgotten) {
  RunningTracker t(Options(2));
  FakeClient silent = Connected(t);
  FakeClient half = Connected(t);
  auto hello = HelloBytes("0");
  hello.resize(hello.size() - 3);
  ASSERT_TRUE(half.SendRaw(hello).ok());  // stalls mid-message: the hello deadline closes it
  FakeClient vanishing = Connected(t);
  ASSERT_TRUE(vanishing.SendRaw(std::vector<std::uint8_t>(hello.begin(), hello.begin() + 10)).ok());
  vanishing.Close();  // disconnects mid-message
  EXPECT_TRUE(silent.WaitClosed(5));
  EXPECT_TRUE(half.WaitClosed(5));

  // A queued worker that leaves before the batch is forgotten; its task id is free again.
  FakeClient early = Connected(t);
  ASSERT_TRUE(early.SendHello(kToken, "0", "127.0.0.1", 9999).ok());
  early.Close();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));

  const Status job = JoinAndRunRealJob(t);
  EXPECT_TRUE(job.ok()) << job.message();
}

TEST(TrackerBadInputTest, DuplicateTaskIdAndLateWorkerAreRejected) {
  RunningTracker t(Options(2));
  std::vector<FakeClient> workers;
  workers.push_back(Connected(t));
  ASSERT_TRUE(workers[0].SendHello(kToken, "0", "127.0.0.1", 9999).ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  FakeClient twin = Connected(t);
  ASSERT_TRUE(twin.SendHello(kToken, "0", "127.0.0.1", 9999).ok());
  EXPECT_NE(RejectReason(twin).find("duplicate task id '0'"), std::string::npos);
  workers.push_back(Connected(t));
  ASSERT_TRUE(workers[1].SendHello(kToken, "1", "127.0.0.1", 9999).ok());
  for (auto& w : workers) ASSERT_TRUE(w.ReadAssign().ok());
  FakeClient late = Connected(t);
  ASSERT_TRUE(late.SendHello(kToken, "2", "127.0.0.1", 9999).ok());
  EXPECT_NE(RejectReason(late).find("already has its 2 workers"), std::string::npos);
  // A second Shutdown on the same connection is logged and ignored.
  ASSERT_TRUE(workers[0].SendRaw(proto::Encode(proto::Shutdown{})).ok());
  ASSERT_TRUE(workers[0].SendRaw(proto::Encode(proto::Shutdown{})).ok());
  EXPECT_EQ(t.Result(0.3).code(), StatusCode::kTimeout);  // still waiting for rank 1
  ASSERT_TRUE(workers[1].SendRaw(proto::Encode(proto::Shutdown{})).ok());
  EXPECT_TRUE(t.Result(10).ok());
}

TEST(TrackerBadInputTest, GarbageFromARankedWorkerFailsTheJobNamingIt) {
  RunningTracker t(Options(2));
  std::vector<FakeClient> workers;
  for (const char* id : {"0", "1"}) {
    workers.push_back(Connected(t));
    ASSERT_TRUE(workers.back().SendHello(kToken, id, "127.0.0.1", 9999).ok());
  }
  for (auto& w : workers) ASSERT_TRUE(w.ReadAssign().ok());
  ASSERT_TRUE(workers[1].SendRaw(std::vector<std::uint8_t>(16, 0xab)).ok());
  const Status s = t.Result(10);
  EXPECT_NE(s.message().find("rank 1"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("magic"), std::string::npos) << s.message();
}

// Before its Hello is verified a connection may not make the tracker allocate more than a Hello
// needs: a header announcing 1 MiB (the limit for a joined worker) is refused at once.
TEST(TrackerBadInputTest, AnOversizedHelloIsRefusedBeforeItsPayload) {
  RunningTracker t(Options(1));
  FakeClient big = Connected(t);
  auto hello = HelloBytes("0");
  hello.resize(proto::kHeaderBytes);
  const std::uint64_t announced = proto::kMaxPayload;
  for (int i = 0; i < 8; ++i) hello[8 + i] = static_cast<std::uint8_t>(announced >> (8 * i));
  ASSERT_TRUE(big.SendRaw(hello).ok());  // and never the payload: no waiting for it either
  const std::string reason = RejectReason(big);
  EXPECT_NE(reason.find("1048576 payload bytes"), std::string::npos) << reason;
  EXPECT_NE(reason.find("4096"), std::string::npos) << reason;
  EXPECT_TRUE(big.WaitClosed(5));
  FakeClient worker = Connected(t);
  ASSERT_TRUE(worker.SendHello(kToken, "0", "127.0.0.1", 9999).ok());
  ASSERT_TRUE(worker.ReadAssign().ok());
  ASSERT_TRUE(worker.SendRaw(proto::Encode(proto::Shutdown{})).ok());
  EXPECT_TRUE(t.Result(10).ok());
}

// Connections without a Hello are capped; the oldest is dropped for a newcomer, so a flood of
// silent connections neither grows without bound nor keeps the real workers out.
TEST(TrackerBadInputTest, SilentConnectionsAreCappedOldestDroppedFirst) {
  TrackerOptions o = Options(2);
  o.hello_timeout_s = 10;  // the cap, not the deadline, must be what closes them
  o.max_anonymous_connections = 3;
  RunningTracker t(o);
  std::vector<FakeClient> silent;
  for (int i = 0; i < 3; ++i) {
    silent.push_back(Connected(t));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // accepted in this order
  }
  EXPECT_FALSE(silent[0].WaitClosed(0.2));
  silent.push_back(Connected(t));
  EXPECT_TRUE(silent[0].WaitClosed(2));
  EXPECT_FALSE(silent[1].WaitClosed(0.2));
  // The real workers push out older silent ones and then, with verified Hellos, do not count.
  std::vector<FakeClient> workers;
  for (const char* id : {"0", "1"}) {
    workers.push_back(Connected(t));
    ASSERT_TRUE(workers.back().SendHello(kToken, id, "127.0.0.1", 9999).ok());
  }
  for (auto& w : workers) ASSERT_TRUE(w.ReadAssign().ok());
  for (int i = 0; i < 3; ++i) silent.push_back(Connected(t));
  for (auto& w : workers) ASSERT_TRUE(w.SendRaw(proto::Encode(proto::Shutdown{})).ok());
  EXPECT_TRUE(t.Result(10).ok());
}

}  // namespace
}  // namespace treering::testing
