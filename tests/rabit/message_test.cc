// Point-to-point messages over in-process ranks with real loopback message links (Mailbox):
// every dtype and sizes 0 .. 64 MiB against the sender's seeded data, any source, tags received
// out of order, non-overtaking order per (source, tag), large messages both ways at once, type
// and count mismatches, a peer that dies mid-message and a silent peer (bounded errors naming
// the rank), and messages to self.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "expected_reduce.h"
#include "message_checks.h"
#include "message_world.h"

namespace rabit::testing {
namespace {

using transport::Mailbox;
using treering::Status;

template <typename T>
void EveryDtypeCase(MessageWorld& world) {
  std::uint64_t seed = 100;
  for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{1000},
                            (std::size_t{1} << 20) / sizeof(T) + 1}) {
    const std::uint64_t this_seed = ++seed;
    ExpectAllOk(world.RunOnAll(
        [&](int rank, Mailbox& box) { return SendOne<T>(rank, box, count, this_seed); }));
  }
}

TEST(Message, EveryDtypeAndSize) {
  MessageWorld world(2);
  EveryDtypeCase<std::int8_t>(world);
  EveryDtypeCase<std::uint8_t>(world);
  EveryDtypeCase<std::int16_t>(world);
  EveryDtypeCase<std::uint16_t>(world);
  EveryDtypeCase<std::int32_t>(world);
  EveryDtypeCase<std::uint32_t>(world);
  EveryDtypeCase<std::int64_t>(world);
  EveryDtypeCase<std::uint64_t>(world);
  EveryDtypeCase<float>(world);
  EveryDtypeCase<double>(world);
}

TEST(Message, SixtyFourMebibytes) {
  MessageWorld world(2);
  ExpectAllOk(world.RunOnAll([](int rank, Mailbox& box) {
    return SendOne<float>(rank, box, (std::size_t{64} << 20) / sizeof(float), 7);
  }));
}

TEST(Message, AnySourceReturnsEachSender) {
  MessageWorld world(4);
  ExpectAllOk(world.RunOnAll([](int rank, Mailbox& box) -> Status {
    if (rank != 0) {
      const std::vector<std::int64_t> data(100 * rank, rank);
      return box.Send(data.data(), data.size(), DataType::kInt64, 0, 3);
    }
    std::set<int> seen;
    for (int i = 1; i < 4; ++i) {
      std::vector<std::int64_t> got(100 * i);
      auto source = box.Recv(got.data(), got.size(), DataType::kInt64, i, 3);
      if (!source.ok()) return source.status();
      seen.insert(source.value());
    }
    return Expect(seen == std::set<int>{1, 2, 3}, "sources");
  }));
  ExpectAllOk(world.RunOnAll([](int rank, Mailbox& box) -> Status {
    if (rank != 0) {
      const std::int32_t mine[2] = {rank, rank * 10};
      return box.Send(mine, 2, DataType::kInt32, 0, 4);
    }
    std::set<int> seen;
    for (int i = 1; i < 4; ++i) {
      std::int32_t got[2] = {0, 0};
      auto source = box.Recv(got, 2, DataType::kInt32, kAnySource, 4);
      if (!source.ok()) return source.status();
      if (got[0] != source.value() || got[1] != source.value() * 10) {
        return Status::Internal("payload does not belong to the returned source");
      }
      seen.insert(source.value());
    }
    return Expect(seen == std::set<int>{1, 2, 3}, "every sender once");
  }));
}

TEST(Message, TagsOutOfOrderAndNonOvertaking) {
  MessageWorld world(2);
  const std::size_t big = (std::size_t{8} << 20) / sizeof(double);  // beyond socket buffers
  ExpectAllOk(world.RunOnAll([big](int rank, Mailbox& box) -> Status {
    const std::vector<double> a = RankData<double>(0, 1, big), b = RankData<double>(0, 2, big);
    if (rank == 0) {
      auto t1 = box.Isend(a.data(), big, DataType::kDouble, 1, 1);
      auto t2 = box.Isend(b.data(), big, DataType::kDouble, 1, 2);
      if (!t1.ok() || !t2.ok()) return Status::Internal("Isend failed");
      for (std::int32_t i = 0; i < 20; ++i) {
        Status s = box.Send(&i, 1, DataType::kInt32, 1, 7);
        if (!s.ok()) return s;
      }
      Status s1 = box.Wait(t1.value()).status();
      if (!s1.ok()) return s1;
      return box.Wait(t2.value()).status();
    }
    std::vector<double> got(big);
    // Tag 2 first: tag 1's 8 MiB must be kept aside without blocking the sender.
    auto r2 = box.Recv(got.data(), big, DataType::kDouble, 0, 2);
    if (!r2.ok()) return r2.status();
    if (got != b) return Status::Internal("tag 2 payload");
    for (std::int32_t i = 0; i < 20; ++i) {
      std::int32_t v = -1;
      auto r = box.Recv(&v, 1, DataType::kInt32, 0, 7);
      if (!r.ok()) return r.status();
      if (v != i) return Status::Internal("tag 7 overtaken: got " + std::to_string(v));
    }
    auto r1 = box.Recv(got.data(), big, DataType::kDouble, 0, 1);
    if (!r1.ok()) return r1.status();
    return Expect(got == a, "tag 1 payload");
  }));
}

TEST(Message, LargeSendsBothWaysAtOnceDoNotDeadlock) {
  MessageWorld world(2);
  const std::size_t n = (std::size_t{32} << 20) / sizeof(float);
  ExpectAllOk(world.RunOnAll([n](int rank, Mailbox& box) -> Status {
    const std::vector<float> mine = RankData<float>(rank, 5, n);
    Status sent = box.Send(mine.data(), n, DataType::kFloat, 1 - rank, 0);
    if (!sent.ok()) return sent;
    std::vector<float> got(n);
    auto r = box.Recv(got.data(), n, DataType::kFloat, 1 - rank, 0);
    if (!r.ok()) return r.status();
    return Expect(got == RankData<float>(1 - rank, 5, n), "peer's payload");
  }));
}

TEST(Message, TestPollsUntilComplete) {
  MessageWorld world(2);
  ExpectAllOk(world.RunOnAll([](int rank, Mailbox& box) -> Status {
    std::uint64_t v = rank == 0 ? 42 : 0;
    if (rank == 0) return box.Send(&v, 1, DataType::kUInt64, 1, 0);
    auto t = box.Irecv(&v, 1, DataType::kUInt64, 0, 0);
    if (!t.ok()) return t.status();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      auto done = box.Test(t.value());
      if (!done.ok()) return done.status();
      if (done.value() == 0) return Expect(v == 42, "value");
    }
    return Status::Internal("Test never completed");
  }));
}

TEST(Message, CountOrTypeMismatchNamesBothRanks) {
  MessageWorld world(2);
  auto statuses = world.RunOnAll([](int rank, Mailbox& box) -> Status {
    std::vector<std::int32_t> data(12, 1);
    if (rank == 0) {
      Status s = box.Send(data.data(), 10, DataType::kInt32, 1, 0);
      if (!s.ok()) return s;
      Status t = box.Send(data.data(), 4, DataType::kInt32, 1, 1);
      if (!t.ok()) return t;
      return box.Send(data.data(), 2, DataType::kInt32, 1, 2);
    }
    auto r = box.Recv(data.data(), 12, DataType::kInt32, 0, 0);
    EXPECT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("rank 1 posted a receive of 12 x int32"), std::string::npos)
        << r.status().message();
    EXPECT_NE(r.status().message().find("rank 0 sent 10 x int32"), std::string::npos);
    auto t = box.Recv(data.data(), 4, DataType::kFloat, 0, 1);
    EXPECT_FALSE(t.ok());
    EXPECT_NE(t.status().message().find("rank 0 sent 4 x int32"), std::string::npos);
    // The stream stays in step: the next message arrives intact.
    auto u = box.Recv(data.data(), 2, DataType::kInt32, 0, 2);
    return u.status();
  });
  ExpectAllOk(statuses);
}

TEST(Message, PeerDyingMidMessageIsNamedQuickly) {
  auto links = bootstrap::BuildLoopbackMessageLinks(2);
  ASSERT_TRUE(links.ok()) << links.status().message();
  transport::MailboxOptions options;
  options.rank = 0;
  options.world = 2;
  options.timeout_seconds = 30;
  Mailbox box(options, std::move(links.value()[0]));
  // Rank 1 (played by the test) sends a header for 1 MiB, 1000 bytes of it, then dies.
  transport::TcpSocket& peer = links.value()[1][0].socket;
  const transport::MessageHeader header{DataType::kUInt8, 5, 1 << 20};
  const auto bytes = header.Encode();
  const std::vector<std::uint8_t> part(1000, 7);
  const auto deadline = transport::DeadlineAfter(5);
  ASSERT_TRUE(peer.SendAll(bytes, deadline).ok());
  ASSERT_TRUE(peer.SendAll(part, deadline).ok());
  peer.Close();
  std::vector<std::uint8_t> buf(1 << 20);
  const auto start = std::chrono::steady_clock::now();
  auto r = box.Recv(buf.data(), buf.size(), DataType::kUInt8, 1, 5);
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_FALSE(r.ok());
  EXPECT_LT(took, 5.0);
  EXPECT_NE(r.status().message().find("rank 1 closed its message link"), std::string::npos)
      << r.status().message();
  EXPECT_NE(r.status().message().find("1000 of 1048576 B"), std::string::npos)
      << r.status().message();
  // The failure is sticky: the next call says the same.
  std::uint8_t one = 0;
  EXPECT_FALSE(box.Isend(&one, 1, DataType::kUInt8, 1, 0).ok());
}

std::vector<std::uint8_t> Bytes(std::size_t n, std::uint64_t seed) {
  return RankData<std::uint8_t>(1, seed, n);
}

// Filler bytes around a payload on the wire (their value is never read).
std::vector<std::uint8_t> Filler(std::size_t n) { return std::vector<std::uint8_t>(n, 0xee); }

// A receive posted while its message is half arrived gets what came so far plus the rest, which
// the Mailbox reads straight into the receive's buffer.
TEST(Message, ReceivePostedWhileMessageArrives) {
  RawPeer peer;
  const std::size_t n = 3 << 20;
  const std::vector<std::uint8_t> payload = Bytes(n, 11);
  transport::MessageHeader header{DataType::kUInt8, 4, n};
  header.lead = 7;  // filler before and after the payload must be skipped
  header.tail = 4095;
  const auto encoded = header.Encode();
  peer.Send(encoded);
  peer.Send(Filler(header.lead));
  peer.Send(std::span(payload).first(1000));
  peer.Pump();  // header, lead and 1000 B read into an unexpected message
  std::vector<std::uint8_t> got(n, 0);
  auto t = peer.box->Irecv(got.data(), n, DataType::kUInt8, 1, 4);
  ASSERT_TRUE(t.ok());
  std::thread rest([&] {
    peer.Send(std::span(payload).subspan(1000));
    peer.Send(Filler(header.tail));
  });
  auto r = peer.box->Wait(t.value());
  rest.join();
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r.value(), 1);
  EXPECT_TRUE(got == payload);
}

// The same with a receive of the wrong count: it fails naming both ranks, the rest of the
// payload is dropped, and the next message from that rank arrives intact.
TEST(Message, MismatchedReceiveWhileMessageArrivesKeepsStreamInStep) {
  RawPeer peer;
  const std::size_t n = 2 << 20;
  const std::vector<std::uint8_t> payload = Bytes(n, 12), next = Bytes(5000, 13);
  const transport::MessageHeader header{DataType::kUInt8, 4, n};
  transport::MessageHeader after{DataType::kUInt8, 4, 5000};
  after.lead = 4095;
  after.tail = 1;
  const auto first = header.Encode(), second = after.Encode();
  peer.Send(first);
  peer.Send(std::span(payload).first(70000));
  peer.Pump();
  std::vector<std::uint8_t> got(n);
  auto wrong = peer.box->Recv(got.data(), n - 1, DataType::kUInt8, 1, 4);
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.status().message().find("rank 0 posted a receive of 2097151 x uint8"),
            std::string::npos)
      << wrong.status().message();
  EXPECT_NE(wrong.status().message().find("rank 1 sent 2097152 x uint8"), std::string::npos);
  std::thread rest([&] {
    peer.Send(std::span(payload).subspan(70000));
    peer.Send(second);
    peer.Send(Filler(after.lead));
    peer.Send(next);
    peer.Send(Filler(after.tail));
  });
  std::vector<std::uint8_t> then(5000);
  auto r = peer.box->Recv(then.data(), then.size(), DataType::kUInt8, 1, 4);
  rest.join();
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(then == next);
}

// A large message that arrived whole before its receive (kept aside), then one posted first:
// both land intact, in order.
TEST(Message, ReceivePostedAfterWholeMessageArrived) {
  MessageWorld world(2);
  const std::size_t n = (std::size_t{16} << 20) / sizeof(float);
  ExpectAllOk(world.RunOnAll([n](int rank, Mailbox& box) -> Status {
    const std::vector<float> a = RankData<float>(0, 21, n), b = RankData<float>(0, 22, n);
    if (rank == 0) {
      Status s = box.Send(a.data(), n, DataType::kFloat, 1, 1);
      if (!s.ok()) return s;
      return box.Send(b.data(), n, DataType::kFloat, 1, 2);
    }
    std::vector<float> got_b(n), got_a(n);
    auto t = box.Irecv(got_b.data(), n, DataType::kFloat, 0, 2);  // tag 1 arrives unexpected
    if (!t.ok()) return t.status();
    auto rb = box.Wait(t.value());
    if (!rb.ok()) return rb.status();
    auto ra = box.Recv(got_a.data(), n, DataType::kFloat, 0, 1);  // kept whole by now
    if (!ra.ok()) return ra.status();
    return Expect(got_a == a && got_b == b, "both payloads");
  }));
}

TEST(Message, SilentPeerTimesOutNamingIt) {
  MessageWorld world(2, /*timeout_seconds=*/0.5);
  std::int32_t v = 0;
  const auto start = std::chrono::steady_clock::now();
  auto r = world.box(0).Recv(&v, 1, DataType::kInt32, 1, 0);
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), treering::StatusCode::kTimeout);
  EXPECT_NE(r.status().message().find("rank 1 sent nothing"), std::string::npos)
      << r.status().message();
  EXPECT_LT(took, 3.0);
}

TEST(Message, PeerThatFinishedFailsOnlyItsReceives) {
  MessageWorld world(3);
  world.box(2).Close();  // rank 2 finished and closed its links
  std::int32_t v = 0;
  auto r = world.box(0).Recv(&v, 1, DataType::kInt32, 2, 0);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("rank 2 closed its message link"), std::string::npos)
      << r.status().message();
}

// A payload from kPlacedFromBytes on sits half a page past its buffer's page offset, counted
// from the start of its message, and the message ends on a page multiple; smaller ones get no
// filler (message_header.h says why). The raw wire is read back and the payload compared, at
// every buffer offset mod 64 (8-byte steps) and sizes around the threshold.
TEST(Message, LargePayloadsSitHalfAPageFromTheirBuffer) {
  RawPeer peer;
  constexpr std::size_t kPage = transport::MessageHeader::kPage;
  constexpr std::size_t kPlaced = transport::MessageHeader::kPlacedFromBytes;
  const std::vector<std::uint8_t> data = Bytes(kPlaced + kPage, 14);
  for (std::size_t offset = 0; offset < 64; offset += 8) {
    for (std::size_t n : {std::size_t{0}, std::size_t{5}, kPlaced - 1, kPlaced, kPlaced + 4000}) {
      SCOPED_TRACE(::testing::Message() << "offset " << offset << ", " << n << " B");
      const std::uint8_t* buf = data.data() + offset;
      std::thread send([&] { EXPECT_TRUE(peer.box->Send(buf, n, DataType::kUInt8, 1, 3).ok()); });
      std::array<std::uint8_t, transport::MessageHeader::kBytes> head{};
      const auto deadline = transport::DeadlineAfter(10);
      EXPECT_TRUE(peer.socket().RecvAll(head, deadline).ok());
      auto header = transport::MessageHeader::Decode(head.data());
      std::vector<std::uint8_t> body;
      if (header.has_value()) {
        body.resize(header->lead + n + header->tail);
        EXPECT_TRUE(peer.socket().RecvAll(body, deadline).ok());
      }
      send.join();
      ASSERT_TRUE(header.has_value());
      ASSERT_EQ(header->count, n);
      EXPECT_TRUE(std::equal(buf, buf + n, body.begin() + header->lead));
      if (n < kPlaced) {
        EXPECT_EQ(header->lead + header->tail, 0);
        continue;
      }
      const std::size_t at = head.size() + header->lead;  // from the message's first byte
      const std::size_t address = reinterpret_cast<std::uintptr_t>(buf);
      EXPECT_EQ((at + kPage - address % kPage) % kPage, kPage / 2);
      EXPECT_EQ((head.size() + body.size()) % kPage, 0u);
    }
  }
}

// Each sendmsg slice of a payload ends (and so the next starts) half a page into a page of the
// user's buffer, after about kSendSliceBytes; the slices cover the payload exactly.
TEST(Message, SendSlicesStartHalfAPageIntoTheBuffer) {
  constexpr std::size_t kPage = transport::MessageHeader::kPage;
  alignas(4096) static std::uint8_t buffer[3 * transport::kSendSliceBytes];
  for (std::size_t offset : {0, 16, 2047, 2048, 2049, 4095}) {
    const std::size_t len = 2 * transport::kSendSliceBytes + 100;
    std::size_t from = 0;
    int slices = 0;
    while (from < len) {
      const std::size_t take = transport::SendSliceBytes(buffer + offset, from, len);
      ASSERT_GT(take, 0u);
      ASSERT_LE(take, transport::kSendSliceBytes);
      from += take;
      ++slices;
      if (from < len) {
        EXPECT_GT(take, transport::kSendSliceBytes - kPage);
        EXPECT_EQ((offset + from) % kPage, kPage / 2) << "offset " << offset;
      }
    }
    EXPECT_EQ(from, len);
    EXPECT_EQ(slices, 3);
  }
}

// Payloads above a send slice are offered in slices that start half a page into the user's
// page; the receiving Mailbox gets every byte at every buffer offset, in both directions.
TEST(Message, SlicedPayloadsArriveWholeAtEveryOffset) {
  auto made = bootstrap::BuildLoopbackMessageLinks(2);
  ASSERT_TRUE(made.ok()) << made.status().message();
  auto links = std::move(made.value());
  std::vector<std::unique_ptr<Mailbox>> boxes;
  for (int rank = 0; rank < 2; ++rank) {
    transport::MailboxOptions options;
    options.rank = rank;
    options.world = 2;
    options.timeout_seconds = 20;
    boxes.push_back(std::make_unique<Mailbox>(options, std::move(links[rank])));
  }
  const std::size_t n = (1 << 20) + 12345;
  const std::vector<std::uint8_t> sent = Bytes(n + 64, 15);
  for (std::size_t from : {0, 8, 16, 24, 40, 63}) {
    for (std::size_t to : {0, 16, 33}) {
      SCOPED_TRACE(::testing::Message() << "send offset " << from << ", receive offset " << to);
      std::vector<std::uint8_t> got(n + 64, 0);
      std::thread receiver([&] {
        auto r = boxes[1]->Recv(got.data() + to, n, DataType::kUInt8, 0, 1);
        EXPECT_TRUE(r.ok()) << r.status().message();
      });
      ASSERT_TRUE(boxes[0]->Send(sent.data() + from, n, DataType::kUInt8, 1, 1).ok());
      receiver.join();
      EXPECT_TRUE(std::equal(got.begin() + to, got.begin() + to + n, sent.begin() + from));
    }
  }
}

TEST(Message, SendToSelf) {
  transport::MailboxOptions options;  // a world of one, no links
  Mailbox box(options, {});
  const std::vector<double> sent = RankData<double>(0, 3, 1000);
  std::vector<double> got(1000);
  ASSERT_TRUE(box.Send(sent.data(), sent.size(), DataType::kDouble, 0, 4).ok());
  auto r = box.Recv(got.data(), got.size(), DataType::kDouble, kAnySource, 4);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r.value(), 0);
  EXPECT_EQ(got, sent);
  // Receive first, then send: the posted receive is filled by the send.
  auto t = box.Irecv(got.data(), 1, DataType::kDouble, 0, 5);
  ASSERT_TRUE(t.ok());
  const double x = 2.5;
  ASSERT_TRUE(box.Send(&x, 1, DataType::kDouble, 0, 5).ok());
  ASSERT_TRUE(box.Wait(t.value()).ok());
  EXPECT_EQ(got[0], 2.5);
  // Nothing else can ever send: an error, not a hang.
  auto never = box.Recv(got.data(), 1, DataType::kDouble, 0, 6);
  ASSERT_FALSE(never.ok());
  EXPECT_NE(never.status().message().find("wait forever"), std::string::npos);
}

}  // namespace
}  // namespace rabit::testing
