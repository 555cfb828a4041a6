// MessageHeader's bytes: lead and tail fillers round-trip, one of kPage or more is refused (out
// of step or not a message link), the local-put frames are told apart, and Place() gives large
// payloads the half-page placement and the page-multiple message length message_header.h describes,
// small ones no filler.
#include "transport/message_header.h"

#include <cstdint>

#include <gtest/gtest.h>

namespace rabit::transport {
namespace {

TEST(MessageHeader, FillersRoundTripAndAreBounded) {
  MessageHeader h{DataType::kFloat, 7, 1000};
  h.lead = 4095;
  h.tail = 258;
  auto bytes = h.Encode();
  auto back = MessageHeader::Decode(bytes.data());
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->lead, 4095);
  EXPECT_EQ(back->tail, 258);
  EXPECT_EQ(back->tag, 7);
  EXPECT_EQ(back->count, 1000u);
  EXPECT_EQ(back->WireBytes(), MessageHeader::kBytes + 4095 + 4000 + 258);
  bytes[7] = 0x10;  // lead 4096 + 4095
  EXPECT_FALSE(MessageHeader::Decode(bytes.data()).has_value());
  bytes = h.Encode();
  bytes[21] = 0x10;  // tail 4096 + 258
  EXPECT_FALSE(MessageHeader::Decode(bytes.data()).has_value());
}

// The local-put frames (mailbox.h): each kind round-trips through its magic; only a message has
// fillers or a payload size from its count; a grant's body has one size; a count whose bytes
// overflow 64 bits is refused for every kind.
TEST(MessageHeader, LocalPutFramesRoundTripAndAreChecked) {
  using Kind = MessageHeader::Kind;
  const MessageHeader message{DataType::kDouble, 11, 1 << 20};
  for (Kind kind : {Kind::kMessage, Kind::kOffer, Kind::kPut}) {
    const MessageHeader frame = message.As(kind);
    auto back = MessageHeader::Decode(frame.Encode().data());
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(back->kind, kind);
    EXPECT_TRUE(back->SameMessage(message));
    EXPECT_EQ(back->BodyBytes(), kind == Kind::kMessage ? (8u << 20) : 0u);
  }
  MessageHeader offer = message.As(Kind::kOffer);
  offer.lead = 16;
  EXPECT_FALSE(MessageHeader::Decode(offer.Encode().data()).has_value());
  const MessageHeader grant{DataType::kUInt8, 0, PutGrant::kBytes, 0, 0, Kind::kGrant};
  auto back = MessageHeader::Decode(grant.Encode().data());
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->BodyBytes(), PutGrant::kBytes);
  MessageHeader wrong = grant;
  wrong.count = PutGrant::kBytes + 1;
  EXPECT_FALSE(MessageHeader::Decode(wrong.Encode().data()).has_value());
  for (Kind kind : {Kind::kMessage, Kind::kOffer}) {
    const MessageHeader huge = MessageHeader{DataType::kInt32, 0, UINT64_MAX / 2}.As(kind);
    EXPECT_FALSE(MessageHeader::Decode(huge.Encode().data()).has_value());
  }
  const PutGrant g{3, 1234, 0x7f0000001000, 0x7f0000002000, 0x0123456789abcdef};
  const PutGrant h = PutGrant::Decode(g.Encode().data());
  EXPECT_EQ(h.offer, 3u);
  EXPECT_EQ(h.pid, 1234u);
  EXPECT_EQ(h.address, 0x7f0000001000u);
  EXPECT_EQ(h.probe_address, 0x7f0000002000u);
  EXPECT_EQ(h.probe_value, 0x0123456789abcdefu);
}

TEST(MessageHeader, PlaceKeepsLargePayloadsHalfAPageFromTheirBuffer) {
  constexpr std::size_t kPage = MessageHeader::kPage;
  alignas(4096) static std::uint8_t buffer[2 * 4096];
  for (std::size_t offset = 0; offset < kPage; offset += 8) {
    for (std::uint64_t count : {std::uint64_t{0}, std::uint64_t{1000},
                                std::uint64_t{MessageHeader::kPlacedFromBytes / 4 - 1}}) {
      MessageHeader h{DataType::kFloat, 0, count};
      h.Place(buffer + offset);
      EXPECT_EQ(h.lead, 0);
      EXPECT_EQ(h.tail, 0);
    }
    for (std::uint64_t count : {MessageHeader::kPlacedFromBytes, std::uint64_t{1} << 22,
                                MessageHeader::kPlacedFromBytes + 4093}) {
      MessageHeader h{DataType::kUInt8, 0, count};
      h.Place(buffer + offset);
      ASSERT_LT(h.lead, kPage);
      ASSERT_LT(h.tail, kPage);
      EXPECT_EQ((MessageHeader::kBytes + h.lead + kPage - offset) % kPage, kPage / 2)
          << "offset " << offset << ", " << count << " B";
      EXPECT_EQ(h.WireBytes() % kPage, 0u);
    }
  }
}

}  // namespace
}  // namespace rabit::transport
