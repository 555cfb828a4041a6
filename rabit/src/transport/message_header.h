// MessageHeader: the 24 bytes in front of every point-to-point message (Send/Isend) on a
// message link, so the receiver can match it to a posted Recv by (source, tag) before any
// payload byte is read, and refuse a Recv whose type or count differs naming both ranks.
//
// Wire layout (little-endian): u32 magic "RBPT" | u8 dtype | u8 zero x3 | i32 tag |
//   u64 count (elements; the payload is count * size(dtype) bytes) | u32 zero
// Message links carry nothing else, so the stream is header, payload, header, payload, ...
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "rabit/comm.h"

namespace rabit::transport {

struct MessageHeader {
  static constexpr std::uint32_t kMagic = 0x54504252;  // "RBPT"
  static constexpr std::size_t kBytes = 24;

  DataType dtype = DataType::kUInt8;
  std::int32_t tag = 0;
  std::uint64_t count = 0;

  std::uint64_t PayloadBytes() const { return count * DataTypeSize(dtype); }
  std::array<std::uint8_t, kBytes> Encode() const;
  // nullopt when the magic or the type is wrong (not a message link, or out of step).
  static std::optional<MessageHeader> Decode(const std::uint8_t* bytes);
  // "12 x int32 (48 B) with tag 3".
  std::string Describe() const;
};

}  // namespace rabit::transport
