// The tracker's side of the challenge-response (tracker/auth.h) on the wire: a client that does
// not know the token gets a random nonce and a Reject, never the token; a proof recorded from a
// real worker cannot be replayed on another connection (the tracker's nonce is fresh); and a
// real worker's Proof is answered by the tracker's own, which the worker can verify.
#include <algorithm>

#include <gtest/gtest.h>

#include "fake_client.h"
#include "running_tracker.h"

namespace treering::testing {
namespace {

constexpr char kToken[] = "tracker-token-8086";

TrackerOptions Options() {
  TrackerOptions o;
  o.num_workers = 2;
  o.token = kToken;
  o.bootstrap_timeout_s = 30;
  o.hello_timeout_s = 5;
  return o;
}

bool Contains(const std::vector<std::uint8_t>& bytes, const std::string& text) {
  return std::search(bytes.begin(), bytes.end(), text.begin(), text.end()) != bytes.end();
}

proto::Hello HelloOf(const std::string& task) {
  proto::Hello h;
  h.nonce.fill(0x42);
  h.task_id = task;
  h.host = "127.0.0.1";
  h.port = 7000;
  return h;
}

// Everything a token-less client can make the tracker say: a Challenge, then a Reject.
TEST(TrackerAuthTest, AClientWithoutTheTokenGetsANonceAndARejectOnly) {
  RunningTracker t(Options());
  FakeClient c;
  ASSERT_TRUE(c.Connect("127.0.0.1", t.port()).ok());
  ASSERT_TRUE(c.SendRaw(proto::Encode(HelloOf("0"))).ok());
  auto challenge = c.ReadFrame();
  ASSERT_TRUE(challenge.ok()) << challenge.status().message();
  EXPECT_EQ(challenge->header.kind, proto::Kind::kChallenge);
  EXPECT_EQ(challenge->payload.size(), proto::kNonceBytes);
  ASSERT_TRUE(c.SendRaw(proto::Encode(proto::Proof{})).ok());  // a guess: all zeros
  auto reject = c.ReadFrame();
  ASSERT_TRUE(reject.ok()) << reject.status().message();
  EXPECT_EQ(reject->header.kind, proto::Kind::kReject);
  EXPECT_EQ(proto::DecodeReject(reject->payload)->reason, "wrong job token");
  EXPECT_TRUE(c.WaitClosed(5));
  EXPECT_FALSE(Contains(challenge->payload, kToken));
  EXPECT_FALSE(Contains(reject->payload, kToken));
}

// A recorded Hello + Proof replayed on a new connection meets a new nonce and is refused; the
// real workers, which prove the token over their own challenges, still get their ranks.
TEST(TrackerAuthTest, ARecordedProofCannotBeReplayed) {
  RunningTracker t(Options());
  FakeClient real;
  ASSERT_TRUE(real.Connect("127.0.0.1", t.port()).ok());
  const proto::Hello hello = HelloOf("0");
  const std::vector<std::uint8_t> hello_frame = proto::Encode(hello);
  ASSERT_TRUE(real.SendRaw(hello_frame).ok());
  auto challenge = real.ReadFrame();
  ASSERT_TRUE(challenge.ok());
  const proto::Nonce nonce = proto::DecodeChallenge(challenge->payload)->nonce;
  const auto payload = std::span<const std::uint8_t>(hello_frame).subspan(proto::kHeaderBytes);
  const std::vector<std::uint8_t> proof_frame = proto::Encode(
      proto::Proof{proto::HelloProof(kToken, proto::Prover::kWorker, nonce, payload)});
  ASSERT_TRUE(real.SendRaw(proof_frame).ok());
  auto tracker_proof = real.ReadFrame();
  ASSERT_TRUE(tracker_proof.ok());
  ASSERT_EQ(tracker_proof->header.kind, proto::Kind::kProof);
  EXPECT_TRUE(proto::SameMac(proto::DecodeProof(tracker_proof->payload)->mac,
                             proto::HelloProof(kToken, proto::Prover::kTracker, nonce, payload)));

  FakeClient replay;
  ASSERT_TRUE(replay.Connect("127.0.0.1", t.port()).ok());
  ASSERT_TRUE(replay.SendRaw(proto::Encode(HelloOf("1"))).ok());
  ASSERT_TRUE(replay.ReadFrame().ok());  // a fresh Challenge, ignored by the replayer
  ASSERT_TRUE(replay.SendRaw(proof_frame).ok());
  auto refused = replay.ReadFrame();
  ASSERT_TRUE(refused.ok());
  EXPECT_EQ(refused->header.kind, proto::Kind::kReject);

  FakeClient second;
  ASSERT_TRUE(second.Connect("127.0.0.1", t.port()).ok());
  ASSERT_TRUE(second.SendHello(kToken, "1", "127.0.0.1", 7001).ok());
  for (FakeClient* w : {&real, &second}) {
    auto a = w->ReadAssign();
    ASSERT_TRUE(a.ok()) << a.status().message();
    ASSERT_TRUE(w->SendRaw(proto::Encode(proto::Shutdown{})).ok());
  }
  EXPECT_TRUE(t.Result(10).ok());
}

}  // namespace
}  // namespace treering::testing
