// The tracker running recovery epochs against fake workers: a lost rank is restarted and every
// rank gets a new Assign of the next epoch; bad recover Hellos are refused without harming the
// job; a lost rank without restarts, or an epoch that does not complete, aborts the job naming
// the rank(s).
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "fake_workers.h"

namespace treering::testing {
namespace {

constexpr char kToken[] = "ft-token";

TrackerOptions Options(int n, std::uint32_t max_attempts, double recovery_s = 30) {
  TrackerOptions o;
  o.num_workers = n;
  o.token = kToken;
  o.bootstrap_timeout_s = 30;
  o.max_attempts = max_attempts;
  o.recovery_timeout_s = recovery_s;
  return o;
}

FakeClient Restart(RunningTracker& t, const proto::Hello& hello,
                   const std::string& token = kToken) {
  FakeClient c;
  EXPECT_TRUE(c.Connect("127.0.0.1", t.port()).ok());
  EXPECT_TRUE(c.SayHello(hello, token).ok());
  return c;
}

// The restarted process takes the dead one's place (FakeClient cannot be move-assigned).
void RestartInto(FakeClient& slot, RunningTracker& t, const proto::Hello& hello) {
  slot.Close();
  EXPECT_TRUE(slot.Connect("127.0.0.1", t.port()).ok());
  EXPECT_TRUE(slot.SayHello(hello, kToken).ok());
}

std::string ReasonOf(FakeClient& c, proto::Kind want) {
  auto f = c.ReadFrame(10);
  if (!f.ok()) return "no frame: " + f.status().message();
  if (f->header.kind != want) return "got " + proto::KindName(f->header.kind);
  return want == proto::Kind::kReject ? proto::DecodeReject(f->payload)->reason
                                      : proto::DecodeAbort(f->payload)->reason;
}

Status ShutDownAll(RunningTracker& t, std::vector<FakeClient>& w) {
  for (auto& c : w) {
    Status s = c.SendRaw(proto::Encode(proto::Shutdown{}));
    if (!s.ok()) return s;
  }
  return t.Result(10);
}

TEST(TrackerRecoveryTest, LostRankRestartsAndEveryRankGetsTheNextEpoch) {
  RunningTracker t(Options(3, 3));
  std::vector<FakeClient> w = Bootstrapped(t, 3, kToken);
  w[1].Close();  // rank 1 dies
  ASSERT_TRUE(w[0].SendRaw(proto::Encode(RecoverHello("0", 0, 0, 8000))).ok());
  ASSERT_TRUE(w[2].SendRaw(proto::Encode(RecoverHello("2", 2, 0, 8002))).ok());
  RestartInto(w[1], t, RecoverHello("1", -1, 1, 8001));
  for (int r = 0; r < 3; ++r) {
    auto a = w[r].ReadAssign();
    ASSERT_TRUE(a.ok()) << "rank " << r << ": " << a.status().message();
    EXPECT_EQ(a->rank, r);
    EXPECT_EQ(a->epoch, 1u);
    for (const proto::PeerAddress& p : a->connect_to) {
      EXPECT_EQ(p.port, 8000 + p.rank) << "rank " << r << " must dial the new port";
    }
  }
  // The same ranks run a second epoch (another failure), then finish.
  w[2].Close();
  RestartInto(w[2], t, RecoverHello("2", -1, 2, 9002));
  ASSERT_TRUE(w[0].SendRaw(proto::Encode(RecoverHello("0", 0, 0, 9000))).ok());
  ASSERT_TRUE(w[1].SendRaw(proto::Encode(RecoverHello("1", 1, 1, 9001))).ok());
  for (int r = 0; r < 3; ++r) {
    auto a = w[r].ReadAssign();
    ASSERT_TRUE(a.ok()) << a.status().message();
    EXPECT_EQ(a->epoch, 2u);
  }
  Status done = ShutDownAll(t, w);
  EXPECT_TRUE(done.ok()) << done.message();
}

TEST(TrackerRecoveryTest, BadRecoverHellosAreRejectedAndTheJobGoesOn) {
  RunningTracker t(Options(2, 3));
  std::vector<FakeClient> w = Bootstrapped(t, 2, kToken);
  FakeClient unknown = Restart(t, RecoverHello("9", -1, 1, 8100));
  EXPECT_NE(ReasonOf(unknown, proto::Kind::kReject).find("unknown task '9'"), std::string::npos);
  FakeClient token = Restart(t, RecoverHello("1", -1, 1, 8101), "wrong");
  EXPECT_EQ(ReasonOf(token, proto::Kind::kReject), "wrong job token");
  FakeClient duplicate = Restart(t, RecoverHello("0", -1, 0, 8102));
  EXPECT_NE(ReasonOf(duplicate, proto::Kind::kReject).find("duplicate: rank 0"), std::string::npos);
  FakeClient too_late = Restart(t, RecoverHello("1", -1, 3, 8103));
  EXPECT_NE(ReasonOf(too_late, proto::Kind::kReject).find("allows 3 attempts"), std::string::npos);
  Status done = ShutDownAll(t, w);
  EXPECT_TRUE(done.ok()) << done.message();
}

TEST(TrackerRecoveryTest, WithoutRestartsARecoverHelloIsRejectedAndALossIsFatal) {
  RunningTracker t(Options(2, 1));
  std::vector<FakeClient> w = Bootstrapped(t, 2, kToken);
  FakeClient restarted = Restart(t, RecoverHello("1", -1, 1, 8200));
  EXPECT_NE(ReasonOf(restarted, proto::Kind::kReject).find("restarts are off"), std::string::npos);
  w[1].Close();
  Status result = t.Result(10);
  EXPECT_EQ(result.code(), StatusCode::kAborted);
  EXPECT_NE(result.message().find("rank 1 failed"), std::string::npos) << result.message();
  EXPECT_NE(ReasonOf(w[0], proto::Kind::kAbort).find("rank 1 failed"), std::string::npos);
}

TEST(TrackerRecoveryTest, EpochThatDoesNotCompleteAbortsNamingTheMissingRanks) {
  RunningTracker t(Options(4, 3, /*recovery_s=*/1.0));
  std::vector<FakeClient> w = Bootstrapped(t, 4, kToken);
  w[2].Close();  // never restarted
  ASSERT_TRUE(w[0].SendRaw(proto::Encode(RecoverHello("0", 0, 0, 8300))).ok());
  ASSERT_TRUE(w[1].SendRaw(proto::Encode(RecoverHello("1", 1, 0, 8301))).ok());
  // rank 3 is frozen: it never asks either.
  Status result = t.Result(20);
  EXPECT_EQ(result.code(), StatusCode::kTimeout);
  EXPECT_NE(result.message().find("ranks 2, 3 did not rejoin"), std::string::npos)
      << result.message();
  EXPECT_NE(ReasonOf(w[0], proto::Kind::kAbort).find("ranks 2, 3 did not rejoin"),
            std::string::npos);
}

// The plain socket engine cannot relink: after rank 3 is lost, rank 0 falls over its link to
// rank 3 and rank 1 over its link to rank 0. Whichever report arrives first, the failure names
// rank 3, whose loss opened the epoch (the fault harness's kill trials race exactly so).
TEST(TrackerRecoveryTest, SurvivorFailureDuringAnEpochNamesTheLostRank) {
  RunningTracker t(Options(4, 3));
  std::vector<FakeClient> w = Bootstrapped(t, 4, kToken);
  w[3].Close();
  // The tracker sees a closed loopback connection at once; its order of events across
  // connections is not the test's, so give the loss a head start over the report.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ASSERT_TRUE(
      w[1].SendRaw(proto::Encode(proto::ErrorReport{"link to rank 0 failed: it closed its link"}))
          .ok());
  Status result = t.Result(10);
  EXPECT_EQ(result.code(), StatusCode::kAborted);
  EXPECT_NE(result.message().find("rank 1 failed: reported an error: link to rank 0 failed: it "
                                  "closed its link "
                                  "(after losing rank 3)"),
            std::string::npos)
      << result.message();
  EXPECT_NE(result.message().find("rank 3 on 127.0.0.1"), std::string::npos) << result.message();
}

// Another rank dies while epoch 1 is open: the epoch waits for both restarts. (A rank lost
// again after it asked is covered by RecoveryTest; across connections the tracker's order of
// events is not the test's, so this test keeps the outcome independent of it.)
TEST(TrackerRecoveryTest, SecondLossDuringAnEpochIsWaitedForToo) {
  RunningTracker t(Options(3, 4));
  std::vector<FakeClient> w = Bootstrapped(t, 3, kToken);
  w[1].Close();
  ASSERT_TRUE(w[0].SendRaw(proto::Encode(RecoverHello("0", 0, 0, 8400))).ok());
  w[2].Close();
  RestartInto(w[1], t, RecoverHello("1", -1, 1, 8411));
  RestartInto(w[2], t, RecoverHello("2", -1, 1, 8412));
  for (int r = 0; r < 3; ++r) {
    auto a = w[r].ReadAssign();
    ASSERT_TRUE(a.ok()) << "rank " << r << ": " << a.status().message();
    EXPECT_EQ(a->epoch, 1u);
    if (r == 2) {
      ASSERT_EQ(a->connect_to.size(), 2u);
      EXPECT_EQ(a->connect_to[0].port, 8400);
      EXPECT_EQ(a->connect_to[1].port, 8411);
    }
  }
  Status done = ShutDownAll(t, w);
  EXPECT_TRUE(done.ok()) << done.message();
}

TEST(TrackerRecoveryTest, SurvivorMayNotRecoverAsAnotherRank) {
  RunningTracker t(Options(2, 3));
  std::vector<FakeClient> w = Bootstrapped(t, 2, kToken);
  ASSERT_TRUE(w[0].SendRaw(proto::Encode(RecoverHello("0", 1, 0, 8500))).ok());
  Status result = t.Result(10);
  EXPECT_EQ(result.code(), StatusCode::kAborted);
  EXPECT_NE(result.message().find("rank 0 failed: unexpected Hello"), std::string::npos)
      << result.message();
}

// Legacy (XGBoost 1.7) workers relink with their own "recover" command; a native recover Hello
// cannot put their job into an epoch it could never complete.
TEST(TrackerRecoveryTest, NativeRecoverHelloIsRefusedInALegacyJob) {
  TrackerOptions o = Options(2, 3);
  o.legacy = true;
  RunningTracker t(o);
  std::vector<FakeClient> legacy(2);
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(legacy[i].Connect("127.0.0.1", t.port()).ok());
    ASSERT_TRUE(legacy[i].SendInt(0xff99).ok());
    ASSERT_EQ(legacy[i].RecvInt().value(), 0xff99);
    for (std::int32_t v : {-1, -1}) ASSERT_TRUE(legacy[i].SendInt(v).ok());
    ASSERT_TRUE(legacy[i].SendStr(std::to_string(i)).ok());
    ASSERT_TRUE(legacy[i].SendStr("start").ok());
  }
  ASSERT_EQ(legacy[0].RecvInt().value(), 0);  // rank 0's assignment begins: the batch is ranked
  FakeClient native = Restart(t, RecoverHello("1", -1, 1, 8600));
  EXPECT_NE(ReasonOf(native, proto::Kind::kReject).find("job of legacy workers"),
            std::string::npos);
}

}  // namespace
}  // namespace treering::testing
