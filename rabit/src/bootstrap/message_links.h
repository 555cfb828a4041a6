// Message links: one TCP link per pair of ranks for point-to-point messages (transport/
// mailbox.h), made when the socket engine starts, after the collective links.
//
// Why every pair, and why at start rather than on first use: the collective links cannot carry
// messages (mailbox.h), so even tree and ring neighbours need a second link; and the peer
// handshake (peer_handshake.h) blocks the dialler until the peer accepts, so a rank dialling on
// demand would wait on a peer busy computing (or dialling it back). At start all ranks are in
// the same call and link in an order that cannot wait in a cycle (each rank dials every lower
// rank, then accepts every higher one; rank 0 only accepts), and a rank that cannot be reached
// fails Init instead of a Send hours later. The cost is world - 1 sockets per rank
// and one Allgather of the listening addresses over the collective links (no tracker change).
#pragma once

#include <string>
#include <vector>

#include "bootstrap/tracker_bootstrap.h"
#include "collective/communicator.h"

namespace rabit::bootstrap {

// Links this rank to each of `peers` (ranks other than its own; both ends of a link list each
// other, and every rank calls it at once): one Allgather of listening addresses (op `seq`),
// then it dials its lower peers and accepts its higher ones, each link authenticated both ways
// and tuned like the collective links. `what` names the links in errors ("message link").
treering::Result<std::vector<transport::Link>> LinkPeers(collective::Communicator& comm,
                                                         std::uint64_t seq, const std::string& host,
                                                         const BootstrapConfig& config,
                                                         std::uint32_t epoch,
                                                         const std::vector<int>& peers,
                                                         const std::string& what);

// Every rank calls it at the same time, right after Communicator::Create; `seq` is the op
// number of the address Allgather. Returns world - 1 links, sockets tuned like the collective
// links (non-blocking, TCP_NODELAY).
treering::Result<std::vector<transport::Link>> LinkMessagePeers(collective::Communicator& comm,
                                                                std::uint64_t seq,
                                                                const std::string& host,
                                                                const BootstrapConfig& config,
                                                                std::uint32_t epoch);

}  // namespace rabit::bootstrap
