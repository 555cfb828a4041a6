// MessageHeader: the 24 bytes in front of every point-to-point message (Send/Isend) on a
// message link, so the receiver can match it to a posted Recv by (source, tag) before any
// payload byte is read, and refuse a Recv whose type or count differs naming both ranks.
//
// Wire layout (little-endian): u32 magic | u8 dtype | u8 zero | u16 lead | i32 tag |
//   u64 count (elements; the payload is count * size(dtype) bytes) | u16 tail | u16 zero
// The magic gives the frame's kind:
//   "RBPT" a message: then `lead` filler bytes, the payload, and `tail` filler bytes (each <
//          kPage; the receiver skips them and needs no rule for them);
//   "RBPO" an offer: a message of this type, count and tag is waiting to be written straight into
//          the receiver's memory (no body; mailbox.h, "Local puts");
//   "RBPG" a grant, the answer to an offer: a body of PutGrant::kBytes follows (count = that);
//   "RBPP" a put: the offered message has been written where the grant said (no body).
// Message links carry nothing else. All rank-to-rank formats are listed in transport/wire_format.h.
//
// Why the filler: the kernel copies a payload between a user buffer and socket memory with
// `rep movsb`, which on the project VM's AMD EPYC runs ~10x slower when (destination - source)
// mod 4096 is 1 to 31 (user space: 2.6-2.9 GB/s vs 22-32 GB/s). Socket memory is the sending
// thread's page fragment, filled in stream order and restarted at offset 0 once the kernel has
// freed what it held, so a payload's page offset there is its offset in the stream plus what
// else the thread sent since the restart (a few hundred bytes of collective headers between
// ping-pongs). With no filler (payload 24 bytes into a message) or a 64-byte alignment rule, a
// buffer at page offset 16 (glibc's fresh mmap) or 24 had up to 47 % of a rank's 1-16 MiB
// ping-pong copy samples in that band (bench/comm/p2p_copy_place.sh); Open MPI up to 5 %.
// Place() puts a large payload half a page away from its buffer's page offset and ends the
// message on a page multiple, so the next one starts where this rule assumes: both copies stay
// ~2 KiB clear of the band whatever the other traffic added, the receiver's too unless its
// buffer sits 2049-2079 bytes (plus that traffic) past the sender's page offset. Small payloads (<
// kPlacedFromBytes) are dominated by per-call costs and get no filler. The send slices keep the
// distance (mailbox.cc).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "rabit/data_type.h"

namespace rabit::transport {

struct MessageHeader {
  enum class Kind : std::uint8_t { kMessage, kOffer, kGrant, kPut };
  static constexpr std::uint32_t kMagic = 0x54504252;       // "RBPT"
  static constexpr std::uint32_t kOfferMagic = 0x4f504252;  // "RBPO"
  static constexpr std::uint32_t kGrantMagic = 0x47504252;  // "RBPG"
  static constexpr std::uint32_t kPutMagic = 0x50504252;    // "RBPP"
  static constexpr std::size_t kBytes = 24;
  static constexpr std::size_t kPage = 4096;
  // Payloads from this size get the filler (up to 2 x 4095 bytes: < 3 % at this size).
  static constexpr std::size_t kPlacedFromBytes = 256 * 1024;

  DataType dtype = DataType::kUInt8;
  std::int32_t tag = 0;
  std::uint64_t count = 0;
  std::uint16_t lead = 0;  // filler bytes between the header and the payload, < kPage
  std::uint16_t tail = 0;  // filler bytes after the payload, < kPage
  Kind kind = Kind::kMessage;

  std::uint64_t PayloadBytes() const { return count * DataTypeSize(dtype); }
  // The bytes after the header on the wire besides fillers: a message's payload, a grant's body.
  std::uint64_t BodyBytes() const {
    return kind == Kind::kMessage || kind == Kind::kGrant ? PayloadBytes() : 0;
  }
  // The same message as another kind of frame (an offer or a put names the message it is for).
  MessageHeader As(Kind other) const {
    MessageHeader h = *this;
    h.kind = other;
    h.lead = 0;
    h.tail = 0;
    return h;
  }
  bool SameMessage(const MessageHeader& o) const {
    return dtype == o.dtype && tag == o.tag && count == o.count;
  }
  std::uint64_t WireBytes() const { return kBytes + lead + PayloadBytes() + tail; }
  // Sets lead and tail for a payload read from `payload` (the rule above).
  void Place(const void* payload);
  std::array<std::uint8_t, kBytes> Encode() const;
  // nullopt when the magic, the type or a filler length is wrong (not a message link, or out
  // of step), or a grant's body is not PutGrant::kBytes.
  static std::optional<MessageHeader> Decode(const std::uint8_t* bytes);
  // "12 x int32 (48 B) with tag 3".
  std::string Describe() const;
};

// The body of a grant: the receiver's answer to offer number `offer` (offers are counted per
// link from 1) that the message may be written to `address` in process `pid`. The probe lets the
// sender check, once per link, that `pid` is the receiver's process (transport/cross_memory.h):
// the sender reads 8 bytes at `probe_address` there and expects `probe_value`.
struct PutGrant {
  static constexpr std::size_t kBytes = 40;
  std::uint64_t offer = 0;
  std::uint64_t pid = 0;
  std::uint64_t address = 0;
  std::uint64_t probe_address = 0;
  std::uint64_t probe_value = 0;

  std::array<std::uint8_t, kBytes> Encode() const;
  static PutGrant Decode(const std::uint8_t* bytes);
};

}  // namespace rabit::transport
