// OpHeader: the 32 bytes every collective sends first on each link direction it uses, so that
// ranks which called different collectives (or the same one with different sizes) fail with a
// message naming both calls instead of silently mixing bytes.
//
// Wire layout (little-endian): u32 magic "RBOP" | u8 kind | u8 dtype | u8 op | u8 zero |
//   i32 root | u32 shape (hash of Allgather slice sizes) | u64 sequence | u64 bytes
// (one of the rank-to-rank formats listed in transport/wire_format.h).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rabit/data_type.h"

namespace rabit::transport {

enum class CollectiveKind : std::uint8_t {
  kAllreduce = 1,
  kBroadcast = 2,
  kAllgather = 3,
  kReduceScatter = 4
};

struct OpHeader {
  static constexpr std::uint32_t kMagic = 0x504F4252;  // "RBOP"
  static constexpr std::size_t kBytes = 32;

  CollectiveKind kind = CollectiveKind::kAllreduce;
  DataType dtype = DataType::kUInt8;
  OpKind op = OpKind::kSum;
  std::int32_t root = -1;
  std::uint32_t shape = 0;
  std::uint64_t sequence = 0;
  std::uint64_t bytes = 0;

  static OpHeader ForAllreduce(std::uint64_t seq, DataType dtype, OpKind op, std::uint64_t bytes);
  static OpHeader ForBroadcast(std::uint64_t seq, int root, std::uint64_t bytes);
  static OpHeader ForAllgather(std::uint64_t seq, const std::vector<std::size_t>& slice_bytes);
  // shape: hash of the per-rank slice bytes, as for Allgather.
  static OpHeader ForReduceScatter(std::uint64_t seq, DataType dtype, OpKind op,
                                   const std::vector<std::size_t>& slice_bytes);

  std::array<std::uint8_t, kBytes> Encode() const;
  // nullopt when the magic is wrong (the peer is not speaking this protocol or is out of step).
  static std::optional<OpHeader> Decode(const std::uint8_t* bytes);

  bool operator==(const OpHeader&) const = default;
  // "Allreduce(sum, float, 4096 B)".
  std::string Describe() const;
};

// "rank 2 called Allreduce(sum, float, 4096 B) as op #17 but rank 0 called Broadcast(...) as
// op #17": the message of a mismatch found on the link from `peer` to `self`.
std::string MismatchMessage(int self, const OpHeader& mine, int peer, const OpHeader& theirs);

const char* DataTypeName(DataType type);
const char* OpKindName(OpKind op);

}  // namespace rabit::transport
