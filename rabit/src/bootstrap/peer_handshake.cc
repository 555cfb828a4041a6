#include "bootstrap/peer_handshake.h"

#include <algorithm>

#include "tracker/protocol.h"

namespace rabit::bootstrap {

using treering::Result;
using treering::Status;

namespace proto = treering::proto;
namespace {

// A Challenge or PeerHello is tiny; anything announcing more is not a peer of this job, and
// refusing it before reading keeps a stranger from making us allocate kMaxPayload.
constexpr std::uint64_t kMaxHandshakePayload = 256;

Result<std::vector<std::uint8_t>> ReadFrameOf(transport::TcpSocket& sock, proto::Kind want,
                                              transport::Deadline deadline) {
  std::vector<std::uint8_t> head(proto::kHeaderBytes);
  Status got = sock.RecvAll(head, deadline);
  if (!got.ok()) return got;
  auto header = proto::DecodeHeader(head);
  if (!header.ok()) return header.status();
  if (header->kind != want) {
    return Status::Protocol("sent " + proto::KindName(header->kind) + " instead of " +
                            proto::KindName(want));
  }
  if (header->payload_bytes > kMaxHandshakePayload) {
    return Status::Protocol("announced a " + std::to_string(header->payload_bytes) + "-byte " +
                            proto::KindName(want));
  }
  std::vector<std::uint8_t> payload(header->payload_bytes);
  got = sock.RecvAll(payload, deadline);
  if (!got.ok()) return got;
  return payload;
}

bool IsCandidate(int rank, std::span<const int> candidates) {
  return std::find(candidates.begin(), candidates.end(), rank) != candidates.end();
}

Result<int> Accept(transport::TcpSocket& sock, const PeerAuth& me, std::span<const int> candidates,
                   transport::Deadline deadline) {
  auto nonce = proto::NewNonce();
  if (!nonce.ok()) return nonce.status();
  Status sent = sock.SendAll(proto::Encode(proto::Challenge{nonce.value()}), deadline);
  if (!sent.ok()) return sent;
  auto payload = ReadFrameOf(sock, proto::Kind::kPeerHello, deadline);
  if (!payload.ok()) return payload.status();
  auto hello = proto::DecodePeerHello(payload.value());
  if (!hello.ok()) return hello.status();
  // Verified over the epoch it claims, so a job member's dial left over from an older epoch is
  // told apart from a stranger; the proof first: an unauthenticated claim is worth nothing.
  const proto::PeerTranscript t{hello->nonce, nonce.value(), hello->epoch, hello->rank, me.rank};
  if (!proto::SameMac(hello->proof, proto::PeerProof(me.token, proto::Prover::kDialler, t))) {
    return Status::Protocol("wrong proof of the job token (claims rank " +
                            std::to_string(hello->rank) + ", epoch " +
                            std::to_string(hello->epoch) + ")");
  }
  if (hello->epoch != me.epoch) {
    return Status::Protocol("rank " + std::to_string(hello->rank) + " is in link epoch " +
                            std::to_string(hello->epoch) + ", this rank in " +
                            std::to_string(me.epoch));
  }
  if (!IsCandidate(hello->rank, candidates)) {
    return Status::Protocol("rank " + std::to_string(hello->rank) + " dialled rank " +
                            std::to_string(me.rank) + " but is not a neighbour expected to");
  }
  sent = sock.SendAll(
      proto::Encode(proto::Proof{proto::PeerProof(me.token, proto::Prover::kAcceptor, t)}),
      deadline);
  if (!sent.ok()) return sent;
  return hello->rank;
}

Result<int> Dial(transport::TcpSocket& sock, const PeerAuth& me, int peer,
                 transport::Deadline deadline) {
  auto payload = ReadFrameOf(sock, proto::Kind::kChallenge, deadline);
  if (!payload.ok()) return payload.status();
  auto challenge = proto::DecodeChallenge(payload.value());
  if (!challenge.ok()) return challenge.status();
  auto nonce = proto::NewNonce();
  if (!nonce.ok()) return nonce.status();
  const proto::PeerTranscript t{nonce.value(), challenge->nonce, me.epoch, me.rank, peer};
  proto::PeerHello hello{me.rank, me.epoch, nonce.value(),
                         proto::PeerProof(me.token, proto::Prover::kDialler, t)};
  Status sent = sock.SendAll(proto::Encode(hello), deadline);
  if (!sent.ok()) return sent;
  auto proof_payload = ReadFrameOf(sock, proto::Kind::kProof, deadline);
  if (!proof_payload.ok()) return proof_payload.status();
  auto proof = proto::DecodeProof(proof_payload.value());
  if (!proof.ok()) return proof.status();
  if (!proto::SameMac(proof->mac, proto::PeerProof(me.token, proto::Prover::kAcceptor, t))) {
    return Status::Protocol("the peer could not prove it is rank " + std::to_string(peer) +
                            " of this job and epoch");
  }
  return peer;
}

}  // namespace

Result<int> ShakeHands(transport::TcpSocket& sock, LinkSide side, const PeerAuth& me,
                       std::span<const int> candidates, transport::Deadline deadline) {
  if (side == LinkSide::kAccept) return Accept(sock, me, candidates, deadline);
  if (candidates.size() != 1) {
    return Status::Internal("a dialled link must name the one rank it dialled");
  }
  return Dial(sock, me, candidates[0], deadline);
}

}  // namespace rabit::bootstrap
