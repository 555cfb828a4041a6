// Local puts (transport/mailbox.h): between ranks of one machine a large message is offered,
// granted and written into the receive buffer with process_vm_writev. In-process ranks are one
// process, so the writes target this process: the protocol is what is tested. Checked against
// the sender's seeded data and the Mailbox's own count of puts and streamed offers: every dtype,
// receives posted before and after the offer, a sender that gives up waiting (the message is
// streamed and the late grant ignored), mismatched receives, any source, both directions at
// once, a receiver that opted out, a grant whose probe does not read back (refused: streamed,
// nothing written), and frames
// out of step from a peer (a put nobody granted, an offer while one is open, a peer that dies
// after its offer) failing with a message that names the rank, and a failing receiver that
// waits for the write its grant allowed.
#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <random>
#include <set>
#include <span>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "bootstrap/loopback_links.h"
#include "expected_reduce.h"
#include "message_checks.h"
#include "message_world.h"
#include "transport/cross_memory.h"

namespace rabit::testing {
namespace {

using transport::Mailbox;
using transport::MessageHeader;
using treering::Status;

constexpr std::size_t kBig = transport::kPutFromBytes;

// Local puts to every peer; the sender waits `wait_us` for a grant.
std::function<void(transport::MailboxOptions&)> Local(int wait_us = 2000000) {
  return [wait_us](transport::MailboxOptions& o) {
    o.local_peers.assign(static_cast<std::size_t>(o.world), true);
    o.put_wait_microseconds = wait_us;
  };
}

// Whether this process may read and write its own memory through process_vm_readv/writev
// (some container seccomp profiles refuse both). Where not, every grant's probe fails and every
// offer is streamed: the tests that count puts then check the data only and end skipped, saying
// why.
bool CrossMemoryAllowed() {
  const std::uint64_t value = 0x5eed5eed5eedULL;
  std::uint64_t copy = 0, back = 0;
  const pid_t self = getpid();
  return transport::ReadFromProcess(self, reinterpret_cast<std::uint64_t>(&value), &copy,
                                    sizeof copy) &&
         copy == value &&
         transport::WriteToProcess(self, reinterpret_cast<std::uint64_t>(&back), &copy,
                                   sizeof back) &&
         back == value;
}

constexpr const char* kNoCrossMemory =
    "process_vm_readv/writev are refused here (seccomp?): puts fall back to the socket, the "
    "data was checked but not the put counts";

template <typename T>
void EveryDtypeCase(MessageWorld& world, std::uint64_t& puts, bool allowed) {
  for (std::size_t bytes : {kBig, kBig + sizeof(T), std::size_t{3} << 20}) {
    const std::size_t count = bytes / sizeof(T);
    ExpectAllOk(world.RunOnAll(
        [&](int rank, Mailbox& box) { return SendOne<T>(rank, box, count, bytes + sizeof(T)); }));
    puts += allowed ? 1 : 0;
    EXPECT_EQ(world.box(0).put_counts().put, puts) << bytes << " B of " << sizeof(T) << "-byte";
  }
}

TEST(LocalPut, EveryDtypeIsWrittenIntoTheReceiveBuffer) {
  MessageWorld world(2, Local());
  const bool allowed = CrossMemoryAllowed();
  std::uint64_t puts = 0;
  EveryDtypeCase<std::int8_t>(world, puts, allowed);
  EveryDtypeCase<std::uint16_t>(world, puts, allowed);
  EveryDtypeCase<std::int32_t>(world, puts, allowed);
  EveryDtypeCase<std::uint64_t>(world, puts, allowed);
  EveryDtypeCase<float>(world, puts, allowed);
  EveryDtypeCase<double>(world, puts, allowed);
  // Outside the put's sizes nothing is offered.
  for (std::size_t bytes : {kBig - 4, transport::kPutBelowBytes}) {
    ExpectAllOk(world.RunOnAll(
        [bytes](int rank, Mailbox& box) { return SendOne<float>(rank, box, bytes / 4, 3); }));
  }
  EXPECT_EQ(world.box(0).put_counts().put, puts);
  if (!allowed) GTEST_SKIP() << kNoCrossMemory;
  EXPECT_EQ(world.box(0).put_counts().streamed, 0u);
}

TEST(LocalPut, ReceivePostedAfterTheOfferGetsThePut) {
  MessageWorld world(2, Local());
  const std::size_t n = (std::size_t{2} << 20) / sizeof(double);
  ExpectAllOk(world.RunOnAll([n](int rank, Mailbox& box) -> Status {
    if (rank == 1) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    return SendOne<double>(rank, box, n, 41);
  }));
  if (!CrossMemoryAllowed()) GTEST_SKIP() << kNoCrossMemory;
  EXPECT_EQ(world.box(0).put_counts().put, 1u);
  EXPECT_EQ(world.box(0).put_counts().streamed, 0u);
}

// A sender that waits for no grant streams what it offered; the receiver's grant arrives late
// and must be ignored, also by the offers after it, which are each streamed or put whole.
TEST(LocalPut, LateGrantsAreIgnoredAndStreamedOffersArriveWhole) {
  MessageWorld world(2, Local(0));
  const std::size_t n = kBig / sizeof(float) + 17;
  ExpectAllOk(world.RunOnAll([n](int rank, Mailbox& box) -> Status {
    for (int i = 0; i < 20; ++i) {
      Status s = SendOne<float>(rank, box, n, 100 + i);
      if (!s.ok()) return s;
    }
    return Status::Ok();
  }));
  EXPECT_EQ(world.box(0).put_counts().put + world.box(0).put_counts().streamed, 20u);
  EXPECT_GT(world.box(0).put_counts().streamed, 0u);
}

// No receive comes while the sender waits: the offer becomes an unexpected message that the
// stream fills, and a receive posted later copies it out.
TEST(LocalPut, OfferWithoutReceiveIsStreamedAndKept) {
  MessageWorld world(2, Local(1000));
  const std::size_t n = (std::size_t{4} << 20) / sizeof(std::int32_t);
  ExpectAllOk(world.RunOnAll([n](int rank, Mailbox& box) -> Status {
    const std::vector<std::int32_t> a = RankData<std::int32_t>(0, 5, n);
    if (rank == 0) return box.Send(a.data(), n, DataType::kInt32, 1, 3);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    std::vector<std::int32_t> got(n);
    auto r = box.Recv(got.data(), n, DataType::kInt32, 0, 3);
    if (!r.ok()) return r.status();
    return Expect(got == a, "payload");
  }));
  EXPECT_EQ(world.box(0).put_counts().streamed, 1u);
}

// A receive that matches an offer by tag but not by count fails naming both ranks, the offered
// message is dropped, and the next one arrives intact: receive posted before the offer, then
// after it.
TEST(LocalPut, MismatchedReceiveDropsTheOfferedMessage) {
  for (bool receive_first : {true, false}) {
    MessageWorld world(2, Local(20000));
    const std::size_t n = kBig / 2 + 1;  // uint16 elements
    ExpectAllOk(world.RunOnAll([n, receive_first](int rank, Mailbox& box) -> Status {
      const std::vector<std::uint16_t> a = RankData<std::uint16_t>(0, 8, n);
      if (rank == 0) {
        Status s = box.Send(a.data(), n, DataType::kUInt16, 1, 6);
        if (!s.ok()) return s;
        return box.Send(a.data(), n, DataType::kUInt16, 1, 6);
      }
      if (!receive_first) std::this_thread::sleep_for(std::chrono::milliseconds(5));
      std::vector<std::uint16_t> got(n + 1);
      auto wrong = box.Recv(got.data(), n + 1, DataType::kUInt16, 0, 6);
      if (wrong.ok()) return Status::Internal("a receive of another count succeeded");
      const std::string& m = wrong.status().message();
      if (m.find("rank 1 posted a receive of " + std::to_string(n + 1) + " x uint16") ==
              std::string::npos ||
          m.find("rank 0 sent " + std::to_string(n) + " x uint16") == std::string::npos) {
        return Status::Internal("mismatch message: " + m);
      }
      got.assign(n, 0);
      auto right = box.Recv(got.data(), n, DataType::kUInt16, 0, 6);
      if (!right.ok()) return right.status();
      return Expect(std::equal(a.begin(), a.end(), got.begin()), "second payload");
    }));
  }
}

TEST(LocalPut, AnySourceReceivesEachSendersPayload) {
  MessageWorld world(3, Local());
  const std::size_t n = (std::size_t{1} << 20) / sizeof(std::int64_t);
  ExpectAllOk(world.RunOnAll([n](int rank, Mailbox& box) -> Status {
    if (rank != 0) {
      const std::vector<std::int64_t> mine(n, rank * 1000 + 7);
      return box.Send(mine.data(), n, DataType::kInt64, 0, 2);
    }
    std::set<int> seen;
    for (int i = 0; i < 2; ++i) {
      std::vector<std::int64_t> got(n, -1);
      auto source = box.Recv(got.data(), n, DataType::kInt64, kAnySource, 2);
      if (!source.ok()) return source.status();
      if (got != std::vector<std::int64_t>(n, source.value() * 1000 + 7)) {
        return Status::Internal("payload does not belong to the returned source");
      }
      seen.insert(source.value());
    }
    return Expect(seen == std::set<int>{1, 2}, "every sender once");
  }));
}

// A receiver that may not be written (rabit_local_read=false there) refuses the first offer
// with a grant naming no process: that message is streamed, and no later one is offered.
TEST(LocalPut, ReceiverThatOptedOutIsNeverWritten) {
  MessageWorld world(2, [](transport::MailboxOptions& o) {
    Local()(o);
    if (o.rank == 1) o.local_peers.assign(2, false);
  });
  for (int i = 0; i < 3; ++i) {
    ExpectAllOk(world.RunOnAll(
        [i](int rank, Mailbox& box) { return SendOne<float>(rank, box, kBig / 4, 60 + i); }));
  }
  EXPECT_EQ(world.box(0).put_counts().put, 0u);
  EXPECT_EQ(world.box(0).put_counts().streamed, 1u);
}

// Both ranks send first: a rank waiting in its own Send cannot grant, so a sender whose peer is
// also sending gives up after the wait and streams (no deadlock); one that offers after its
// peer moved on to the receive gets a put. Posting the receive first gives puts both ways.
TEST(LocalPut, BothWaysAtOnce) {
  MessageWorld world(2, Local(200000));
  const std::size_t n = (std::size_t{4} << 20) / sizeof(float);
  ExpectAllOk(world.RunOnAll([n](int rank, Mailbox& box) -> Status {
    const std::vector<float> mine = RankData<float>(rank, 5, n);
    std::vector<float> got(n);
    Status sent = box.Send(mine.data(), n, DataType::kFloat, 1 - rank, 0);
    if (!sent.ok()) return sent;
    auto r = box.Recv(got.data(), n, DataType::kFloat, 1 - rank, 0);
    if (!r.ok()) return r.status();
    if (got != RankData<float>(1 - rank, 5, n)) return Status::Internal("send-first payload");
    auto t = box.Irecv(got.data(), n, DataType::kFloat, 1 - rank, 1);
    if (!t.ok()) return t.status();
    sent = box.Send(mine.data(), n, DataType::kFloat, 1 - rank, 1);
    if (!sent.ok()) return sent;
    auto w = box.Wait(t.value());
    if (!w.ok()) return w.status();
    return Expect(got == RankData<float>(1 - rank, 5, n), "receive-first payload");
  }));
  if (!CrossMemoryAllowed()) GTEST_SKIP() << kNoCrossMemory;
  for (int r = 0; r < 2; ++r) {
    const auto& counts = world.box(r).put_counts();
    EXPECT_EQ(counts.put + counts.streamed, 2u) << "rank " << r;
    EXPECT_GE(counts.put, 1u) << "rank " << r;
  }
}

// Rank 1 (a RawPeer) grants rank 0's offer.
void SendGrant(RawPeer& peer, const transport::PutGrant& grant) {
  const MessageHeader frame{DataType::kUInt8,           0, transport::PutGrant::kBytes, 0, 0,
                            MessageHeader::Kind::kGrant};
  peer.Send(frame.Encode());
  peer.Send(grant.Encode());
}

// A grant whose probe does not read back what it claims is refused: nothing is written to the
// granted address, the message is streamed, and later messages to that rank are not offered.
TEST(LocalPut, GrantWithAWrongProbeIsRefused) {
  RawPeer peer(Local());
  const std::size_t n = kBig;
  const std::vector<std::uint8_t> payload = RankData<std::uint8_t>(0, 9, n);
  std::vector<std::uint8_t> target(n, 0x5a);
  std::thread sender([&] {
    EXPECT_TRUE(peer.box->Send(payload.data(), n, DataType::kUInt8, 1, 4).ok());
    EXPECT_TRUE(peer.box->Send(payload.data(), n, DataType::kUInt8, 1, 5).ok());
  });
  const MessageHeader offer = peer.ReadHeader();
  EXPECT_EQ(offer.kind, MessageHeader::Kind::kOffer);
  EXPECT_EQ(offer.count, n);
  const std::uint64_t& probe = transport::ProcessProbe();
  SendGrant(peer, {1, static_cast<std::uint64_t>(getpid()),
                   reinterpret_cast<std::uint64_t>(target.data()),
                   reinterpret_cast<std::uint64_t>(&probe), probe + 1});
  for (int tag : {4, 5}) {
    const MessageHeader h = peer.ReadHeader();
    EXPECT_EQ(h.kind, MessageHeader::Kind::kMessage) << "tag " << tag;
    EXPECT_EQ(h.tag, tag);
    std::vector<std::uint8_t> body(h.lead + n + h.tail);
    ASSERT_TRUE(peer.socket().RecvAll(body, transport::DeadlineAfter(10)).ok());
    EXPECT_TRUE(std::equal(payload.begin(), payload.end(), body.begin() + h.lead));
  }
  sender.join();
  EXPECT_EQ(target, std::vector<std::uint8_t>(n, 0x5a));
  EXPECT_EQ(peer.box->put_counts().put, 0u);
  EXPECT_EQ(peer.box->put_counts().streamed, 1u);
}

// Rank 1 sends `frames` to rank 0, whose receive of a kBig-byte message with tag 3 must fail
// with a message containing `expected`.
void ExpectReceiveFails(std::initializer_list<MessageHeader> frames, const std::string& expected) {
  RawPeer peer(Local());
  for (const MessageHeader& frame : frames) peer.Send(frame.Encode());
  std::vector<std::uint8_t> got(kBig);
  auto r = peer.box->Recv(got.data(), kBig, DataType::kUInt8, 1, 3);
  ASSERT_FALSE(r.ok()) << expected;
  EXPECT_NE(r.status().message().find(expected), std::string::npos) << r.status().message();
}

// The receiver's side against frames out of step: each fails the receive naming rank 1.
TEST(LocalPut, FramesOutOfStepFailNamingTheRank) {
  using Kind = MessageHeader::Kind;
  const MessageHeader message{DataType::kUInt8, 3, kBig};
  ExpectReceiveFails({message.As(Kind::kPut)},
                     "rank 1 put a message no grant was sent for to rank 0");
  ExpectReceiveFails({message.As(Kind::kOffer), message.As(Kind::kOffer)},
                     "rank 1 offered a message while its last offer was open");
  ExpectReceiveFails({message.As(Kind::kOffer), MessageHeader{DataType::kUInt8, 3, kBig - 1}},
                     "rank 1 sent another message than it offered");
  // The sender dies after its offer was granted.
  RawPeer peer(Local());
  std::vector<std::uint8_t> got(kBig);
  peer.Send(message.As(Kind::kOffer).Encode());
  std::thread closer([&] {
    const MessageHeader grant = peer.ReadHeader();  // the grant: then die
    EXPECT_EQ(grant.kind, Kind::kGrant);
    std::array<std::uint8_t, transport::PutGrant::kBytes> body{};
    EXPECT_TRUE(peer.socket().RecvAll(body, transport::DeadlineAfter(10)).ok());
    peer.socket().Close();
  });
  auto r = peer.box->Recv(got.data(), kBig, DataType::kUInt8, 1, 3);
  closer.join();
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("rank 1 closed its message link (died?) while rank 0 was "
                                      "receiving a message of 1048576 x uint8"),
            std::string::npos)
      << r.status().message();
}

// A receiver that fails (here: rabit_timeout) while a sender holds its grant does not return
// the failure before that sender's put: the caller could otherwise free the buffer while the
// other process still writes it. The sender here writes 1 s after the grant, past the
// receiver's 0.5 s timeout.
TEST(LocalPut, AFailingReceiverWaitsForTheGrantedWrite) {
  if (!CrossMemoryAllowed()) GTEST_SKIP() << kNoCrossMemory;
  RawPeer peer([](transport::MailboxOptions& o) {
    Local()(o);
    o.timeout_seconds = 0.5;
  });
  const MessageHeader message{DataType::kUInt8, 3, kBig};
  const std::vector<std::uint8_t> payload = RankData<std::uint8_t>(1, 77, kBig);
  std::vector<std::uint8_t> got(kBig, 0);
  std::atomic<bool> written{false};
  peer.Send(message.As(MessageHeader::Kind::kOffer).Encode());
  std::thread sender([&] {
    const MessageHeader grant = peer.ReadHeader();
    EXPECT_EQ(grant.kind, MessageHeader::Kind::kGrant);
    std::array<std::uint8_t, transport::PutGrant::kBytes> body{};
    ASSERT_TRUE(peer.socket().RecvAll(body, transport::DeadlineAfter(10)).ok());
    const transport::PutGrant g = transport::PutGrant::Decode(body.data());
    std::this_thread::sleep_for(std::chrono::seconds(1));
    EXPECT_TRUE(transport::WriteToProcess(getpid(), g.address, payload.data(), kBig));
    written = true;
    peer.Send(message.As(MessageHeader::Kind::kPut).Encode());
  });
  auto r = peer.box->Recv(got.data(), kBig, DataType::kUInt8, 1, 3);
  const bool was_written = written.load();
  sender.join();
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("no progress within rabit_timeout"), std::string::npos)
      << r.status().message();
  EXPECT_TRUE(was_written) << "the failure came back while the grant was still open";
  EXPECT_TRUE(got == payload);
}

// Hostile bytes on the link: random frames of every kind with random fields, and random
// garbage. The receive completes or fails with a Status; nothing hangs or crashes (ASan runs
// this), and a failed Mailbox keeps failing.
TEST(LocalPut, RandomFramesNeverCrashOrHang) {
  std::mt19937_64 rng(2026);
  const MessageHeader::Kind kinds[] = {MessageHeader::Kind::kMessage, MessageHeader::Kind::kOffer,
                                       MessageHeader::Kind::kGrant, MessageHeader::Kind::kPut};
  for (int trial = 0; trial < 60; ++trial) {
    RawPeer peer(Local());
    std::vector<std::uint8_t> got(4096);
    for (int f = 0; f < 4; ++f) {
      MessageHeader h{static_cast<DataType>(rng() % 10), static_cast<std::int32_t>(rng() % 3),
                      rng() % 4096};
      h.kind = kinds[rng() % 4];
      // Huge counts only where nothing is allocated for them (ASan aborts on a huge new).
      if (h.kind != MessageHeader::Kind::kMessage && rng() % 2 == 0) h.count = rng();
      auto bytes = h.Encode();
      if (rng() % 4 == 0) bytes[rng() % bytes.size()] ^= static_cast<std::uint8_t>(rng());
      peer.Send(bytes);
      std::vector<std::uint8_t> junk(rng() % 64);
      for (auto& b : junk) b = static_cast<std::uint8_t>(rng());
      peer.Send(junk);
    }
    peer.socket().Close();
    const auto start = std::chrono::steady_clock::now();
    auto r = peer.box->Recv(got.data(), got.size(), DataType::kUInt8, 1, 1);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(4)) << trial;
    if (!r.ok()) {
      auto again = peer.box->Recv(got.data(), 1, DataType::kUInt8, 1, 0);
      EXPECT_FALSE(again.ok()) << trial;
    }
  }
}

}  // namespace
}  // namespace rabit::testing
