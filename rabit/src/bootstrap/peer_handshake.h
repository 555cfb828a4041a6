// The handshake that opens every worker <-> worker link (tracker/auth.h, docs/protocol.md):
//   acceptor -> Challenge{nonce_a}
//   dialler  -> PeerHello{rank_d, epoch, nonce_d, proof_d}
//   acceptor -> Proof{proof_a}
// Both proofs are HMAC-SHA256s keyed by the job token over both nonces, the epoch and both
// ranks, so the token never crosses the wire, a stranger learns nothing but a random nonce, and
// a link is only made between the two ranks of the same epoch that the tracker paired.
// This is the one entry point for authenticating a link (bootstrap, relink, on-demand links).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "transport/tcp_socket.h"

namespace rabit::bootstrap {

enum class LinkSide { kDial, kAccept };

struct PeerAuth {
  std::string token;        // the job token: keys the proofs, never sent
  int rank = -1;            // this worker's rank
  std::uint32_t epoch = 0;  // the epoch of the Assign the link is built for
};

// Authenticates a freshly connected or accepted `sock`. The other side must be one of
// `candidates`: the dialler passes exactly the rank it dialled, the acceptor the ranks it still
// expects. Returns the peer's rank. kProtocol for a peer without the token, of another epoch or
// rank, or not speaking the protocol; kNetwork / kTimeout when it hangs up or stays silent.
// Never throws; whatever the peer sends, at most one frame header + kMaxPayload is read.
treering::Result<int> ShakeHands(transport::TcpSocket& sock, LinkSide side, const PeerAuth& me,
                                 std::span<const int> candidates, transport::Deadline deadline);

}  // namespace rabit::bootstrap
