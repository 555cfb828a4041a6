// The legacy dmlc/rabit dialect against the exchange traced from XGBoost 1.7.4 workers
// (shared/reference/xgboost-1.7-observed.md): 2 workers, task ids "0" and "1".
#include <thread>

#include <gtest/gtest.h>

#include "fake_client.h"
#include "running_tracker.h"

namespace treering::testing {
namespace {

constexpr std::int32_t kMagic = 0xff99;

TrackerOptions LegacyOptions(int n) {
  TrackerOptions o;
  o.num_workers = n;
  o.legacy = true;  // off by default: the dialect has no token
  return o;
}

FakeClient Hello(RunningTracker& t, int rank, const std::string& task, const std::string& cmd,
                 const std::string& source_ip = "") {
  FakeClient c;
  EXPECT_TRUE(c.Connect("127.0.0.1", t.port(), source_ip).ok());
  EXPECT_TRUE(c.SendInt(kMagic).ok());
  EXPECT_EQ(c.RecvInt().value(), kMagic);
  EXPECT_TRUE(c.SendInt(rank).ok());
  EXPECT_TRUE(c.SendInt(-1).ok());
  EXPECT_TRUE(c.SendStr(task).ok());
  EXPECT_TRUE(c.SendStr(cmd).ok());
  return c;
}

std::vector<std::int32_t> RecvInts(FakeClient& c, int n) {
  std::vector<std::int32_t> v;
  for (int i = 0; i < n; ++i) v.push_back(c.RecvInt().value());
  return v;
}

TEST(TrackerLegacyTest, TwoWorkersFollowTheTracedExchange) {
  RunningTracker t(LegacyOptions(2));
  FakeClient w1 = Hello(t, -1, "1", "start");
  FakeClient w0 = Hello(t, -1, "0", "start");
  // rank, parent, world, n_neighbours, [neighbours], ring_prev, ring_next
  EXPECT_EQ(RecvInts(w0, 7), (std::vector<std::int32_t>{0, -1, 2, 1, 1, 1, 1}));
  ASSERT_TRUE(w0.SendInt(0).ok());                                // n_good
  EXPECT_EQ(RecvInts(w0, 2), (std::vector<std::int32_t>{0, 1}));  // num_conn, num_accept
  ASSERT_TRUE(w0.SendInt(0).ok());                                // n_errors
  ASSERT_TRUE(w0.SendInt(50837).ok());                            // listen port
  EXPECT_TRUE(w0.WaitClosed(5));

  EXPECT_EQ(RecvInts(w1, 7), (std::vector<std::int32_t>{1, 0, 2, 1, 0, 0, 0}));
  ASSERT_TRUE(w1.SendInt(0).ok());
  EXPECT_EQ(RecvInts(w1, 2), (std::vector<std::int32_t>{1, 0}));
  EXPECT_EQ(w1.RecvStr().value(), "127.0.0.1");
  EXPECT_EQ(RecvInts(w1, 2), (std::vector<std::int32_t>{50837, 0}));  // port, rank
  ASSERT_TRUE(w1.SendInt(1).ok());  // one dial failed: the loop repeats
  ASSERT_TRUE(w1.SendInt(0).ok());
  EXPECT_EQ(RecvInts(w1, 2), (std::vector<std::int32_t>{1, 0}));
  EXPECT_EQ(w1.RecvStr().value(), "127.0.0.1");
  EXPECT_EQ(RecvInts(w1, 2), (std::vector<std::int32_t>{50837, 0}));
  ASSERT_TRUE(w1.SendInt(0).ok());
  ASSERT_TRUE(w1.SendInt(50838).ok());
  EXPECT_TRUE(w1.WaitClosed(5));

  FakeClient print = Hello(t, 0, "0", "print");
  ASSERT_TRUE(print.SendStr("[0]\ttr-rmse:0.42500\n").ok());
  EXPECT_TRUE(print.WaitClosed(5));
  FakeClient other = Hello(t, 1, "1", "print");
  ASSERT_TRUE(other.SendStr("note").ok());
  EXPECT_TRUE(other.WaitClosed(5));
  for (int r : {0, 1}) {
    FakeClient bye = Hello(t, r, std::to_string(r), "shutdown");
    EXPECT_TRUE(bye.WaitClosed(5));
  }
  EXPECT_TRUE(t.Result(10).ok());
  EXPECT_EQ(t.prints(), (std::vector<std::string>{"[0]\ttr-rmse:0.42500", "[rank 1] note"}));
}

// XGBoost's rank 0 prints its last eval line on a connection of its own, then shuts down: the
// line must not be lost when the job completes while it is still arriving.
TEST(TrackerLegacyTest, PrintStillArrivingWhenTheJobEndsIsNotLost) {
  RunningTracker t(LegacyOptions(1));
  FakeClient w = Hello(t, -1, "0", "start");
  RecvInts(w, 6);
  ASSERT_TRUE(w.SendInt(0).ok());
  RecvInts(w, 2);
  ASSERT_TRUE(w.SendInt(0).ok());
  ASSERT_TRUE(w.SendInt(1234).ok());
  FakeClient print = Hello(t, 0, "0", "print");
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  FakeClient bye = Hello(t, 0, "0", "shutdown");
  EXPECT_TRUE(bye.WaitClosed(5));
  ASSERT_TRUE(print.SendStr("[9]\tlast").ok());
  EXPECT_TRUE(t.Result(10).ok());
  EXPECT_EQ(t.prints(), (std::vector<std::string>{"[9]\tlast"}));
}

// A ranked legacy worker that vanishes during its link negotiation would leave its peers
// waiting for a dial that never comes: the job fails naming it.
TEST(TrackerLegacyTest, WorkerLostDuringLinkSetupFailsTheJob) {
  RunningTracker t(LegacyOptions(2));
  FakeClient w0 = Hello(t, -1, "0", "start");
  FakeClient w1 = Hello(t, -1, "1", "start");
  EXPECT_EQ(RecvInts(w0, 7)[0], 0);
  w0.Close();
  const Status s = t.Result(10);
  EXPECT_EQ(s.code(), StatusCode::kAborted);
  EXPECT_NE(s.message().find("rank 0"), std::string::npos) << s.message();
  EXPECT_TRUE(w1.WaitClosed(5));  // rank 1, still waiting for its turn, is let go
}

TEST(TrackerLegacyTest, LegacyClientsCanBeDisabled) {
  TrackerOptions o;
  o.num_workers = 1;
  o.legacy = false;
  RunningTracker t(o);
  FakeClient c;
  ASSERT_TRUE(c.Connect("127.0.0.1", t.port()).ok());
  ASSERT_TRUE(c.SendInt(kMagic).ok());
  EXPECT_TRUE(c.WaitClosed(5));
  EXPECT_EQ(t.Result(0.2).code(), StatusCode::kTimeout);  // still serving
}

TEST(TrackerLegacyTest, UnknownCommandAndBadLengthsAreDropped) {
  RunningTracker t(LegacyOptions(1));
  FakeClient odd = Hello(t, -1, "NULL", "dance");
  EXPECT_TRUE(odd.WaitClosed(5));
  FakeClient neg;
  ASSERT_TRUE(neg.Connect("127.0.0.1", t.port()).ok());
  ASSERT_TRUE(neg.SendInt(kMagic).ok());
  ASSERT_TRUE(neg.SendInt(-1).ok());
  ASSERT_TRUE(neg.SendInt(-1).ok());
  ASSERT_TRUE(neg.SendInt(-5).ok());  // negative string length
  EXPECT_TRUE(neg.WaitClosed(5));
  // The job still runs: one worker, no links.
  FakeClient w = Hello(t, -1, "NULL", "start");
  EXPECT_EQ(RecvInts(w, 6), (std::vector<std::int32_t>{0, -1, 1, 0, -1, -1}));
  ASSERT_TRUE(w.SendInt(0).ok());
  EXPECT_EQ(RecvInts(w, 2), (std::vector<std::int32_t>{0, 0}));
  ASSERT_TRUE(w.SendInt(0).ok());
  ASSERT_TRUE(w.SendInt(1234).ok());
  FakeClient bye = Hello(t, 0, "NULL", "shutdown");
  EXPECT_TRUE(t.Result(10).ok());
}

// The dialect has no token, so a default tracker does not speak it at all: a legacy client gets
// a native Reject, not the 0xff99 echo that starts the legacy exchange.
TEST(TrackerLegacyTest, TheDefaultTrackerRefusesTokenLessClients) {
  TrackerOptions o;
  o.num_workers = 1;
  RunningTracker t(o);
  FakeClient c;
  ASSERT_TRUE(c.Connect("127.0.0.1", t.port()).ok());
  ASSERT_TRUE(c.SendInt(kMagic).ok());
  auto first = c.RecvInt(5);
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_EQ(static_cast<std::uint32_t>(first.value()), proto::kMagic);  // a Reject frame
  EXPECT_TRUE(c.WaitClosed(5));
  EXPECT_EQ(t.Result(0.2).code(), StatusCode::kTimeout);  // still serving
}

// With --legacy on, a token-less client still cannot finish, abort or speak for a job whose
// workers are native: forged evaluation line, shutdown of every rank, recover then hang up.
TEST(TrackerLegacyTest, ALegacyClientCannotActOnANativeJob) {
  TrackerOptions o = LegacyOptions(2);
  o.token = "job-token";
  RunningTracker t(o);
  std::vector<FakeClient> workers(2);
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(workers[i].Connect("127.0.0.1", t.port()).ok());
    ASSERT_TRUE(workers[i].SendHello(o.token, std::to_string(i), "127.0.0.1", 9000 + i).ok());
  }
  for (auto& w : workers) ASSERT_TRUE(w.ReadAssign().ok());

  FakeClient print = Hello(t, 0, "0", "print");
  (void)print.SendStr("[9]\tforged-auc:1.0");  // refused before it is read: may not arrive
  EXPECT_TRUE(print.WaitClosed(5));
  FakeClient recover = Hello(t, 0, "0", "recover");
  recover.Close();  // a worker lost in its link setup would fail the job
  FakeClient start = Hello(t, -1, "7", "start");
  EXPECT_TRUE(start.WaitClosed(5));
  for (int r : {0, 1}) {
    FakeClient bye = Hello(t, r, std::to_string(r), "shutdown");
    EXPECT_TRUE(bye.WaitClosed(5));
  }
  EXPECT_EQ(t.Result(0.5).code(), StatusCode::kTimeout);  // neither finished nor failed

  for (auto& w : workers) ASSERT_TRUE(w.SendRaw(proto::Encode(proto::Shutdown{})).ok());
  EXPECT_TRUE(t.Result(10).ok());
  EXPECT_TRUE(t.prints().empty()) << t.prints().front();
}

// In a legacy job a claimed rank is believed only from the address that rank joined from, and
// only once ranks exist: nothing else is ever shown as rank 0 or shuts a rank down.
TEST(TrackerLegacyTest, AClaimFromElsewhereIsNotShownAsRank0) {
  RunningTracker t(LegacyOptions(1));
  FakeClient early = Hello(t, 0, "0", "print");
  (void)early.SendStr("[0]\tbefore any rank exists");
  EXPECT_TRUE(early.WaitClosed(5));
  FakeClient w = Hello(t, -1, "0", "start");
  EXPECT_EQ(RecvInts(w, 6), (std::vector<std::int32_t>{0, -1, 1, 0, -1, -1}));
  ASSERT_TRUE(w.SendInt(0).ok());
  EXPECT_EQ(RecvInts(w, 2), (std::vector<std::int32_t>{0, 0}));
  ASSERT_TRUE(w.SendInt(0).ok());
  ASSERT_TRUE(w.SendInt(1234).ok());
  EXPECT_TRUE(w.WaitClosed(5));

  FakeClient forged = Hello(t, 0, "0", "print", "127.0.0.2");
  (void)forged.SendStr("[0]\tfrom another host");
  EXPECT_TRUE(forged.WaitClosed(5));
  FakeClient stop = Hello(t, 0, "0", "shutdown", "127.0.0.2");
  EXPECT_TRUE(stop.WaitClosed(5));
  EXPECT_EQ(t.Result(0.3).code(), StatusCode::kTimeout);

  FakeClient real = Hello(t, 0, "0", "print");
  ASSERT_TRUE(real.SendStr("[0]\treal").ok());
  EXPECT_TRUE(real.WaitClosed(5));
  FakeClient bye = Hello(t, 0, "0", "shutdown");
  EXPECT_TRUE(t.Result(10).ok());
  EXPECT_EQ(t.prints(), (std::vector<std::string>{"[0]\treal"}));
}

}  // namespace
}  // namespace treering::testing
