// The native codec on raw bytes: exact layout of a frame, round trips of every message, and
// each way a frame can be malformed (all must come back as kProtocol errors, never a crash).
#include "tracker/protocol.h"

#include <gtest/gtest.h>

namespace treering::proto {
namespace {

using Bytes = std::vector<std::uint8_t>;

std::span<const std::uint8_t> Payload(const Bytes& frame) {
  return std::span<const std::uint8_t>(frame).subspan(kHeaderBytes);
}

Hello SampleHello() {
  Hello h;
  h.nonce.fill(0xa5);
  h.task_id = "7";
  h.command = Command::kRecover;
  h.rank = 3;
  h.world_size = 8;
  h.attempt = 2;
  h.host = "::1";
  h.port = 50837;
  return h;
}

Assign SampleAssign() {
  Assign a;
  a.rank = 6;
  a.world_size = 7;
  a.parent = 0;
  a.tree_neighbours = {0, 4, 5};
  a.ring_prev = 5;
  a.ring_next = 0;
  a.connect_to = {{0, "10.0.0.1", 9000}, {5, "host-5", 65535}};
  a.num_accept = 0;
  a.epoch = 3;
  return a;
}

TEST(ProtocolTest, ShutdownFrameIsExactlyTheHeader) {
  const Bytes f = Encode(Shutdown{});
  const Bytes expected{'T', 'R', 'K', '1', 4, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(f, expected);
}

TEST(ProtocolTest, PrintLayoutIsLengthPrefixedLittleEndian) {
  const Bytes f = Encode(Print{"hi"});
  ASSERT_EQ(f.size(), kHeaderBytes + 6);
  EXPECT_EQ(f[6], 3);  // kind Print
  EXPECT_EQ(f[8], 6);  // payload bytes, low byte
  const Bytes payload(f.begin() + kHeaderBytes, f.end());
  EXPECT_EQ(payload, (Bytes{2, 0, 0, 0, 'h', 'i'}));
}

TEST(ProtocolTest, ReportLayoutAndRoundTrip) {
  Report in;
  in.pid = 0x01020304;
  in.round = 41;
  in.phase = "hs";
  in.op = OpKind::kAllreduce;
  in.entered = 812;
  in.finished = 811;
  in.bytes = 1;
  in.done_round = -1;
  in.total_rounds = 100;
  in.comp_s = 1.0;  // 0x3ff0000000000000
  in.metrics = {{"m", 0.5}};
  const Bytes f = Encode(in);
  EXPECT_EQ(f[6], 11);  // kind Report
  const Bytes payload(f.begin() + kHeaderBytes, f.end());
  const Bytes expected{
      4,    3,    2,    1,    41, 0, 0, 0, 2, 0, 0, 0,   'h', 's',  1,    0x2c, 3, 0, 0,    0,
      0,    0,    0,    0x2b, 3,  0, 0, 0, 0, 0, 0, 1,   0,   0,    0,    0,    0, 0, 0,    0xff,
      0xff, 0xff, 0xff, 100,  0,  0, 0, 0, 0, 0, 0, 0,   0,   0xf0, 0x3f, 0,    0, 0, 0,    0,
      0,    0,    0,    1,    0,  0, 0, 1, 0, 0, 0, 'm', 0,   0,    0,    0,    0, 0, 0xe0, 0x3f};
  // The trailer: hang_report_s -1.0 (0xbff0...), no links.
  Bytes with_trailer = expected;
  for (std::uint8_t b : {0, 0, 0, 0, 0, 0, 0xf0, 0xbf, 0, 0, 0, 0}) with_trailer.push_back(b);
  EXPECT_EQ(payload, with_trailer);
  // A Report of an earlier version-4 worker ends after the metrics: it decodes with defaults.
  auto old = DecodeReport(expected);
  ASSERT_TRUE(old.ok()) << old.status().message();
  EXPECT_EQ(old->hang_report_s, -1.0);
  EXPECT_TRUE(old->links.empty());
  auto out = DecodeReport(payload);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(out->phase, "hs");
  EXPECT_EQ(out->entered, 812u);
  EXPECT_EQ(out->done_round, -1);
  EXPECT_EQ(out->comp_s, 1.0);
  ASSERT_EQ(out->metrics.size(), 1u);
  EXPECT_EQ(out->metrics[0].value, 0.5);
  Bytes bad_op = payload;
  bad_op[14] = 5;
  EXPECT_NE(DecodeReport(bad_op).status().message().find("op 5"), std::string::npos);
}

TEST(ProtocolTest, ReportLinksRoundTrip) {
  Report in;
  in.hang_report_s = 5;
  in.links = {{3, 100, 200, 40.5, true}, {1, 7, 0, 0.25, false}};
  const Bytes f = Encode(in);
  const Bytes payload(f.begin() + kHeaderBytes, f.end());
  auto out = DecodeReport(payload);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(out->hang_report_s, 5.0);
  ASSERT_EQ(out->links.size(), 2u);
  EXPECT_EQ(out->links[0].peer, 3);
  EXPECT_EQ(out->links[0].sent, 100u);
  EXPECT_EQ(out->links[0].received, 200u);
  EXPECT_EQ(out->links[0].idle_s, 40.5);
  EXPECT_TRUE(out->links[0].waiting);
  EXPECT_FALSE(out->links[1].waiting);
  Bytes bad_flag = payload;
  bad_flag.back() = 2;
  EXPECT_NE(DecodeReport(bad_flag).status().message().find("waiting 2"), std::string::npos);
  Bytes cut = payload;
  cut.pop_back();
  EXPECT_FALSE(DecodeReport(cut).ok());
}

TEST(ProtocolTest, HeaderRoundTrip) {
  const Bytes f = Encode(SampleHello());
  auto h = DecodeHeader(std::span<const std::uint8_t>(f).first(kHeaderBytes));
  ASSERT_TRUE(h.ok()) << h.status().message();
  EXPECT_EQ(h->kind, Kind::kHello);
  EXPECT_EQ(h->payload_bytes, f.size() - kHeaderBytes);
}

TEST(ProtocolTest, HelloRoundTrip) {
  const Hello in = SampleHello();
  auto out = DecodeHello(Payload(Encode(in)));
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(out->nonce, in.nonce);
  EXPECT_EQ(out->task_id, in.task_id);
  EXPECT_EQ(out->command, in.command);
  EXPECT_EQ(out->rank, in.rank);
  EXPECT_EQ(out->world_size, in.world_size);
  EXPECT_EQ(out->attempt, in.attempt);
  EXPECT_EQ(out->host, in.host);
  EXPECT_EQ(out->port, in.port);
}

TEST(ProtocolTest, AssignRoundTrip) {
  const Assign in = SampleAssign();
  auto out = DecodeAssign(Payload(Encode(in)));
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(out->rank, in.rank);
  EXPECT_EQ(out->world_size, in.world_size);
  EXPECT_EQ(out->parent, in.parent);
  EXPECT_EQ(out->tree_neighbours, in.tree_neighbours);
  EXPECT_EQ(out->ring_prev, in.ring_prev);
  EXPECT_EQ(out->ring_next, in.ring_next);
  ASSERT_EQ(out->connect_to.size(), 2u);
  EXPECT_EQ(out->connect_to[1].rank, 5);
  EXPECT_EQ(out->connect_to[1].host, "host-5");
  EXPECT_EQ(out->connect_to[1].port, 65535);
  EXPECT_EQ(out->num_accept, in.num_accept);
  EXPECT_EQ(out->epoch, 3u);
}

// PeerHello is i32 rank, u32 epoch, 32-byte nonce, 32-byte proof; the epoch is also the last
// field of Assign. Nonces and MACs are raw bytes without a length.
TEST(ProtocolTest, PeerHelloLayoutAndEpochLittleEndian) {
  PeerHello p{2, 0x01020304, {}, {}};
  p.nonce.fill(0x11);
  p.proof.fill(0x22);
  const Bytes f = Encode(p);
  Bytes expected{2, 0, 0, 0, 4, 3, 2, 1};
  expected.insert(expected.end(), kNonceBytes, 0x11);
  expected.insert(expected.end(), kMacBytes, 0x22);
  EXPECT_EQ(Bytes(f.begin() + kHeaderBytes, f.end()), expected);
  const Bytes challenge = Encode(Challenge{p.nonce});
  EXPECT_EQ(Bytes(challenge.begin() + kHeaderBytes, challenge.end()), Bytes(kNonceBytes, 0x11));
  EXPECT_EQ(Encode(Proof{p.proof}).size(), kHeaderBytes + kMacBytes);
  Assign a = SampleAssign();
  a.epoch = 0x0a0b0c0d;
  const Bytes g = Encode(a);
  EXPECT_EQ(Bytes(g.end() - 4, g.end()), (Bytes{0x0d, 0x0c, 0x0b, 0x0a}));
}

// Error carries the ranks it blames as i32s after the message (docs/protocol.md), so the tracker
// never reads rank numbers out of the text.
TEST(ProtocolTest, ErrorReportCarriesTheBlamedRanks) {
  const Bytes e = Encode(ErrorReport{"hi", {2, -1}});
  EXPECT_EQ(Bytes(e.begin() + kHeaderBytes, e.end()),
            (Bytes{2, 0, 0, 0, 'h', 'i', 2, 0, 0, 0, 2, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}));
  auto back = DecodeErrorReport(Payload(e));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->ranks, (std::vector<std::int32_t>{2, -1}));
  // A count the bytes cannot hold, and a message without the list, are protocol errors.
  Bytes lying(e.begin() + kHeaderBytes, e.end());
  lying[6] = 9;
  EXPECT_EQ(DecodeErrorReport(lying).status().code(), StatusCode::kProtocol);
  const Bytes print = Encode(Print{"hi"});
  EXPECT_EQ(DecodeErrorReport(Payload(print)).status().code(), StatusCode::kProtocol);
}

TEST(ProtocolTest, TextMessagesRoundTrip) {
  const std::string text = std::string("[0]\ttrain-rmse:0.5\n") + '\0' + "binary";
  EXPECT_EQ(DecodePrint(Payload(Encode(Print{text})))->message, text);
  EXPECT_EQ(DecodeErrorReport(Payload(Encode(ErrorReport{text})))->message, text);
  EXPECT_EQ(DecodeAbort(Payload(Encode(Abort{text})))->reason, text);
  EXPECT_EQ(DecodeReject(Payload(Encode(Reject{text})))->reason, text);
  EXPECT_TRUE(DecodeShutdown(Payload(Encode(Shutdown{}))).ok());
  PeerHello in{4, 7, {}, {}};
  in.nonce[0] = 1;
  in.proof[31] = 2;
  auto peer = DecodePeerHello(Payload(Encode(in)));
  ASSERT_TRUE(peer.ok());
  EXPECT_EQ(peer->rank, 4);
  EXPECT_EQ(peer->epoch, 7u);
  EXPECT_EQ(peer->nonce, in.nonce);
  EXPECT_EQ(peer->proof, in.proof);
  EXPECT_EQ(DecodeChallenge(Payload(Encode(Challenge{in.nonce})))->nonce, in.nonce);
  EXPECT_EQ(DecodeProof(Payload(Encode(Proof{in.proof})))->mac, in.proof);
  EXPECT_FALSE(DecodeProof(Payload(Encode(Proof{in.proof})).first(kMacBytes - 1)).ok());
}

TEST(ProtocolTest, EveryTruncationIsAnError) {
  const Bytes f = Encode(SampleAssign());
  const auto payload = Payload(f);
  for (std::size_t n = 0; n < payload.size(); ++n) {
    auto r = DecodeAssign(payload.first(n));
    ASSERT_FALSE(r.ok()) << "prefix of " << n << " bytes decoded";
    EXPECT_EQ(r.status().code(), StatusCode::kProtocol);
  }
  const Bytes h = Encode(SampleHello());
  for (std::size_t n = 0; n + kHeaderBytes < h.size(); ++n) {
    EXPECT_FALSE(DecodeHello(Payload(h).first(n)).ok()) << n;
  }
  EXPECT_FALSE(DecodeHeader(std::span<const std::uint8_t>(h).first(kHeaderBytes - 1)).ok());
}

TEST(ProtocolTest, TrailingBytesAreAnError) {
  Bytes f = Encode(Print{"x"});
  f.push_back(0);
  auto r = DecodePrint(Payload(f));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("trailing"), std::string::npos);
  Bytes s = Encode(Shutdown{});
  s.push_back(1);
  EXPECT_FALSE(DecodeShutdown(Payload(s)).ok());
}

TEST(ProtocolTest, WrongMagicVersionKindAndOversizeAreRejected) {
  const Bytes good = Encode(Shutdown{});
  auto header = [&](std::size_t at, std::uint8_t value) {
    Bytes b = good;
    b[at] = value;
    return DecodeHeader(b);
  };
  auto magic = header(0, 'X');
  EXPECT_NE(magic.status().message().find("magic"), std::string::npos);
  auto version = header(4, 1);  // version 1 sent the token in clear: refused
  EXPECT_NE(version.status().message().find("version 1"), std::string::npos);
  EXPECT_NE(header(6, 0).status().message().find("unknown message kind 0"), std::string::npos);
  EXPECT_NE(header(6, 13).status().message().find("kind 13"), std::string::npos);
  EXPECT_NE(header(4, 3).status().message().find("version 3"), std::string::npos);
  auto big = header(11, 1);  // payload_bytes = 2^24 > kMaxPayload
  EXPECT_EQ(big.status().code(), StatusCode::kProtocol);
  EXPECT_NE(big.status().message().find("exceeds"), std::string::npos);
  EXPECT_TRUE(header(10, 0x10).ok());  // exactly kMaxPayload (2^20) is allowed
}

TEST(ProtocolTest, OverlongStringIsRejectedBeforeReading) {
  // A Print whose string claims kMaxString + 1 bytes.
  const std::uint32_t n = kMaxString + 1;
  Bytes payload{static_cast<std::uint8_t>(n), static_cast<std::uint8_t>(n >> 8),
                static_cast<std::uint8_t>(n >> 16), static_cast<std::uint8_t>(n >> 24)};
  payload.resize(4 + n, 'a');
  auto r = DecodePrint(payload);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("max"), std::string::npos);
}

TEST(ProtocolTest, EncoderCapsOverlongTextSoFramesStayDecodable) {
  const std::string huge(kMaxString + 100, 'z');
  auto r = DecodePrint(Payload(Encode(Print{huge})));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->message.size(), kMaxString);
}

TEST(ProtocolTest, HostileListCountDoesNotAllocate) {
  Bytes payload(12, 0);                                     // rank, world, parent
  payload.insert(payload.end(), {0xff, 0xff, 0xff, 0x7f});  // tree_neighbours count ~2^31
  auto r = DecodeAssign(payload);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("claims"), std::string::npos);
}

TEST(ProtocolTest, UnknownHelloCommandIsRejected) {
  Bytes f = Encode(SampleHello());
  // command byte follows the nonce (32) and task id (4+1)
  f[kHeaderBytes + kNonceBytes + 4 + 1] = 9;
  auto r = DecodeHello(Payload(f));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("unknown command 9"), std::string::npos);
}

}  // namespace
}  // namespace treering::proto
