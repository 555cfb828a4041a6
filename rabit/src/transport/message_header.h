// MessageHeader: the 24 bytes in front of every point-to-point message (Send/Isend) on a
// message link, so the receiver can match it to a posted Recv by (source, tag) before any
// payload byte is read, and refuse a Recv whose type or count differs naming both ranks.
//
// Wire layout (little-endian): u32 magic "RBPT" | u8 dtype | u8 lead | u8 zero x2 | i32 tag |
//   u64 count (elements; the payload is count * size(dtype) bytes) | u32 zero
// then `lead` filler bytes, the payload, and TailBytes() filler bytes, so every message takes a
// multiple of kAlign bytes of the stream. Message links carry nothing else.
//
// Why the filler: the kernel copies a payload between the user's buffer and socket memory with
// `rep movsb`, which on the AMD EPYC of the project VM ran 2x slower end to end (4 MiB
// ping-pong) for user buffers at some offsets in their page (16, 24, 48, 80) than at others (32,
// 1040): the copy's speed depends on where source and destination sit relative to each other,
// and socket memory is filled from the start of the stream. The sender picks `lead` so that the
// payload's stream offset matches its buffer's address modulo kAlign (LeadFor), which makes the
// relation the same for every buffer (docs/collectives.md, "Point-to-point speed").
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
  static constexpr std::size_t kAlign = 64;

  DataType dtype = DataType::kUInt8;
  std::int32_t tag = 0;
  std::uint64_t count = 0;
  std::uint8_t lead = 0;  // filler bytes between the header and the payload, < kAlign

  std::uint64_t PayloadBytes() const { return count * DataTypeSize(dtype); }
  // Filler after the payload that ends the message on a multiple of kAlign.
  std::size_t TailBytes() const {
    return (kAlign - (kBytes + lead + PayloadBytes()) % kAlign) % kAlign;
  }
  // The lead that puts a payload read from `payload` at a stream offset congruent to its
  // address modulo kAlign (messages start at multiples of kAlign).
  static std::uint8_t LeadFor(const void* payload);
  std::array<std::uint8_t, kBytes> Encode() const;
  // nullopt when the magic or the type is wrong (not a message link, or out of step).
  static std::optional<MessageHeader> Decode(const std::uint8_t* bytes);
  // "12 x int32 (48 B) with tag 3".
  std::string Describe() const;
};

}  // namespace rabit::transport
