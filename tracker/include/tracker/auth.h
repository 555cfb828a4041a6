// Challenge-response authentication of the native protocol (version 2). The job token is a
// shared secret that never crosses the wire: each side proves it knows the token with an
// HMAC-SHA256 keyed by the token over a transcript that holds a fresh random nonce of the
// *other* side, so a recorded proof is worthless in the next handshake. Every proof starts with
// a label naming who makes it (worker, tracker, dialling peer, accepting peer), so a proof that
// one role was tricked into computing can never be replayed as another role's.
//
//   worker  -> tracker   Hello{nonce_w, ...}
//   tracker -> worker    Challenge{nonce_t}
//   worker  -> tracker   Proof{HelloProof(kWorker, nonce_t, hello payload)}
//   tracker -> worker    Proof{HelloProof(kTracker, nonce_t, hello payload)}   (or Reject)
//
//   acceptor -> dialler  Challenge{nonce_a}
//   dialler  -> acceptor PeerHello{rank_d, epoch, nonce_d, PeerProof(kDialler, ...)}
//   acceptor -> dialler  Proof{PeerProof(kAcceptor, ...)}                       (or hang up)
//
// The token authenticates the handshake only: nothing after it is encrypted or signed
// (docs/protocol.md, "Authentication").
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "base/status.h"

namespace treering::proto {

inline constexpr std::size_t kNonceBytes = 32;
inline constexpr std::size_t kMacBytes = 32;
using Nonce = std::array<std::uint8_t, kNonceBytes>;
using Mac = std::array<std::uint8_t, kMacBytes>;

enum class Prover : std::uint8_t { kWorker, kTracker, kDialler, kAcceptor };

// kNonceBytes from the operating system's CSPRNG (OpenSSL RAND_bytes); kInternal if it fails.
Result<Nonce> NewNonce();

// HMAC-SHA256 (RFC 2104) of `message` keyed by `key`.
Mac HmacSha256(std::string_view key, std::span<const std::uint8_t> message);

// Constant-time comparison: the time taken does not depend on where the MACs differ.
bool SameMac(const Mac& a, const Mac& b);

// The tracker handshake's proofs (kWorker or kTracker): HMAC(token, label || nonce_t ||
// hello_payload). The Hello payload holds the worker's nonce, so both sides' nonces and every
// Hello field are bound.
Mac HelloProof(std::string_view token, Prover who, const Nonce& tracker_nonce,
               std::span<const std::uint8_t> hello_payload);

// The peer handshake's proofs (kDialler or kAcceptor): HMAC(token, label || nonce_d || nonce_a
// || u32 epoch || i32 from_rank || i32 to_rank), integers little-endian. Binding both ranks
// means a proof for one link cannot be used on another.
struct PeerTranscript {
  Nonce dialler_nonce{};
  Nonce acceptor_nonce{};
  std::uint32_t epoch = 0;
  std::int32_t dialler_rank = -1;
  std::int32_t acceptor_rank = -1;
};
Mac PeerProof(std::string_view token, Prover who, const PeerTranscript& t);

}  // namespace treering::proto
