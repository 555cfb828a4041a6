// MessageHeader's bytes: the lead filler round-trips, a lead of kAlign or more is refused (out of
// step or not a message link), LeadFor puts the payload at a stream offset congruent to its
// address, and TailBytes ends every message on a multiple of kAlign.
#include "transport/message_header.h"

#include <cstdint>

#include <gtest/gtest.h>

namespace rabit::transport {
namespace {

TEST(MessageHeader, LeadRoundTripsAndIsBounded) {
  MessageHeader h{DataType::kFloat, 7, 1000};
  h.lead = 63;
  auto bytes = h.Encode();
  auto back = MessageHeader::Decode(bytes.data());
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->lead, 63);
  EXPECT_EQ(back->tag, 7);
  EXPECT_EQ(back->count, 1000u);
  bytes[5] = MessageHeader::kAlign;
  EXPECT_FALSE(MessageHeader::Decode(bytes.data()).has_value());
}

TEST(MessageHeader, LeadForMatchesTheAddressAndTailEndsTheMessageAligned) {
  alignas(64) static std::uint8_t buffer[256];
  for (std::size_t offset = 0; offset < 128; ++offset) {
    const std::uint8_t lead = MessageHeader::LeadFor(buffer + offset);
    ASSERT_LT(lead, MessageHeader::kAlign);
    EXPECT_EQ((MessageHeader::kBytes + lead) % MessageHeader::kAlign,
              offset % MessageHeader::kAlign);
    for (std::uint64_t count : {0, 1, 3, 40, 64, 1000}) {
      MessageHeader h{DataType::kUInt8, 0, count};
      h.lead = lead;
      const std::size_t wire = MessageHeader::kBytes + lead + count + h.TailBytes();
      EXPECT_EQ(wire % MessageHeader::kAlign, 0u);
      EXPECT_LT(h.TailBytes(), MessageHeader::kAlign);
    }
  }
}

}  // namespace
}  // namespace rabit::transport
