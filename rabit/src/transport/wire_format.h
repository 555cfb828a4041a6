// Every message one rank sends another, in one place (as leveldb keeps its formats in one file):
// what each byte means, encoded field by field in little-endian order so that the bytes do not
// depend on the host's byte order or a compiler's struct padding. docs/protocol.md ("Rank-to-rank
// formats") has a table per message.
//
// The formats:
//   OpHeader           32 B  first on every link direction a collective uses (op_header.h)
//   MessageHeader      24 B  in front of every point-to-point frame (message_header.h)
//   PutGrant           40 B  the body of a local-put grant (message_header.h)
//   RankPlacement      16 B  each rank's slot of the op #0 Allgather (collective/rank_placement.h)
//   AddressSlot        66 B  each rank's slot of the message-link address Allgather
//   LocalPairAnnounce  40 B  what each of two ranks on one machine swaps before cross-memory reads
//   RankState          32 B  each rank's slot of the robust engine's consensus Allgather
//   RecoveryMeta       40 B  what the robust engine's holder broadcasts before a cached result
// The first three keep their codecs next to their types (they carry behaviour of their own) and
// use the helpers below; the others are defined here.
//
// Decoders never crash on what a peer sends: each takes a span, checks its length and every
// field with a range, and returns a kProtocol Status naming the field otherwise. Encoding then
// decoding gives the same value; on little-endian hosts the bytes are the ones these messages
// had when they were sent as raw structs (this file changed no byte on x86-64).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>

#include "base/status.h"
#include "transport/op_header.h"

namespace rabit::transport {

using WireBytes = std::span<const std::uint8_t>;

// The low `bytes` bytes of `value` at `out`, least significant first.
void PutLe(std::uint8_t* out, std::uint64_t value, std::size_t bytes);
// The `bytes`-byte little-endian integer at `in`.
std::uint64_t GetLe(const std::uint8_t* in, std::size_t bytes);
// Messages that are only u64 fields (LocalPairAnnounce, PutGrant): `values` at `out`, in order.
void PutLeWords(std::uint8_t* out, std::initializer_list<std::uint64_t> values);
template <std::size_t N>
std::array<std::uint64_t, N> GetLeWords(const std::uint8_t* in) {
  std::array<std::uint64_t, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = GetLe(in + 8 * i, 8);
  return out;
}

// Tree discovery and placement (op #0): the rank's tree parent and the machine it runs on.
struct RankPlacement {
  static constexpr std::size_t kBytes = 16;
  std::int32_t parent = -1;   // tree parent (-1 for the root)
  std::int32_t cores = 1;     // online cores of its machine, >= 1
  std::uint64_t machine = 0;  // hash of the kernel's boot id (the host name when unreadable)

  std::array<std::uint8_t, kBytes> Encode() const;
  // Refuses a parent below -1 or fewer than 1 core (the parent's upper bound is the world's,
  // which the caller checks).
  static treering::Result<RankPlacement> Decode(WireBytes in);
  bool operator==(const RankPlacement&) const = default;
};

// Where a rank listens for message links: the host (at most kHostBytes - 1 bytes, NUL-padded so
// that every slot of the Allgather has one size) and the port.
struct AddressSlot {
  static constexpr std::size_t kHostBytes = 64;
  static constexpr std::size_t kBytes = kHostBytes + 2;
  std::string host;
  std::uint16_t port = 0;

  // The host is cut at kHostBytes - 1 bytes: callers refuse longer names before.
  std::array<std::uint8_t, kBytes> Encode() const;
  // The host ends at its first NUL or after kHostBytes - 1 bytes, whichever comes first.
  static treering::Result<AddressSlot> Decode(WireBytes in);
  bool operator==(const AddressSlot&) const = default;
};

// The first message of a local-pair reduction (collective/local_pair_reduction.cc): the rank's
// process, its buffer, a value the partner reads back to prove the reads reach this process, and
// a word the partner may write to prove the writes do. Every value is valid on the wire; the
// probe decides whether the addresses are used.
struct LocalPairAnnounce {
  static constexpr std::size_t kBytes = 40;
  std::uint64_t pid = 0;
  std::uint64_t buffer = 0;
  std::uint64_t probe_address = 0;
  std::uint64_t probe_value = 0;
  std::uint64_t sink_address = 0;

  std::array<std::uint8_t, kBytes> Encode() const;
  static treering::Result<LocalPairAnnounce> Decode(WireBytes in);
  bool operator==(const LocalPairAnnounce&) const = default;
};

// Where a rank of the robust engine stands (engines/robust/consensus.h). Before the first
// LoadCheckPoint it is in the bootstrap phase; then at collective `seq` of `version`.
enum class Phase : std::uint32_t {
  kBootstrap = 0,  // pending a setup collective (seq = its index among setup collectives)
  kLoad = 1,       // inside LoadCheckPoint, holding no checkpoint
  kOp = 2,         // pending collective `seq` of `version`
  kCommit = 3,     // pending the checkpoint barrier (collective `seq` of `version`)
};

struct RankState {
  static constexpr std::size_t kBytes = 32;
  Phase phase = Phase::kBootstrap;
  std::uint32_t version = 0;         // checkpoints committed
  std::uint64_t seq = 0;             // pending collective within the phase / version
  std::uint64_t bootstrap_done = 0;  // setup collectives whose results this rank caches
  std::uint32_t local_replicas = 0;  // ranks before this one whose local state it holds
  std::uint32_t has_local = 0;       // 1: the committed checkpoint includes local state

  std::array<std::uint8_t, kBytes> Encode() const;
  // Refuses an unknown phase and a has_local other than 0 or 1.
  static treering::Result<RankState> Decode(WireBytes in);
  bool operator==(const RankState&) const = default;
};

// What the holder of a cached collective result broadcasts before the result: the header of the
// collective it recorded, so a replaying rank can check it replays the same call, and the
// result's size in bytes (the size of the broadcast that follows).
struct RecoveryMeta {
  static constexpr std::size_t kBytes = OpHeader::kBytes + 8;
  OpHeader signature;
  std::uint64_t bytes = 0;

  std::array<std::uint8_t, kBytes> Encode() const;
  // Refuses a header whose magic is wrong.
  static treering::Result<RecoveryMeta> Decode(WireBytes in);
  bool operator==(const RecoveryMeta&) const = default;
};

}  // namespace rabit::transport
