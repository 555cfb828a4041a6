// Accepting the links of a worker's higher-ranked neighbours. Every accepted connection shakes
// hands on a thread of its own, so a stranger on the peer port (a port scanner, a silent or slow
// client, a process of another job) delays no real peer: while it holds its handshake for up to
// kHandshakeSeconds, the next connection is accepted and checked beside it. At most
// kMaxPendingHandshakes run at once; a new connection beyond that cancels the oldest, so a flood
// of silent connections cannot fill the slots for longer than it takes a real peer (milliseconds)
// to prove itself.
#pragma once

#include <vector>

#include "bootstrap/peer_handshake.h"
#include "transport/link_set.h"

namespace rabit::bootstrap {

inline constexpr double kHandshakeSeconds = 5;
inline constexpr int kMaxPendingHandshakes = 32;

// Accepts on `listener` until each rank of `expected` has dialled and proved itself, appending
// their links to `links`. A failed handshake is logged on stderr (remote address and why) and
// dropped; only `deadline` ends the wait, with a kTimeout naming the ranks that never came.
// `me.rank` names this worker in log lines.
treering::Status AcceptExpectedPeers(const transport::TcpSocket& listener,
                                     std::vector<int> expected, const PeerAuth& me,
                                     transport::Deadline deadline,
                                     std::vector<transport::Link>* links);

}  // namespace rabit::bootstrap
