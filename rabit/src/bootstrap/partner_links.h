// Partner links: the links the recursive allreduces (collective/recursive_layout.h) need beyond
// the tree and the ring the tracker's topology links. Made when the socket engine starts, right
// after the collective links and in the same way as the message links (message_links.h): one
// Allgather of listening addresses over the collective links, then each rank dials its missing
// lower-ranked partners and accepts its higher-ranked ones (an order that cannot wait in a
// cycle), every link authenticated both ways (peer_handshake.h). At most log2(world) + 1 extra
// sockets per rank. The robust engine makes them again after every relink (RobustOptions::
// link_partners), so it picks the same algorithms as the socket engine.
#pragma once

#include <cstdint>
#include <string>

#include "bootstrap/tracker_bootstrap.h"
#include "collective/communicator.h"

namespace rabit::bootstrap {

// Every rank calls it at the same time, right after Communicator::Create; `seq` is the op
// number of the address Allgather. On success comm has every partner link and may run the
// recursive algorithms.
treering::Status LinkRecursivePartners(collective::Communicator& comm, std::uint64_t seq,
                                       const std::string& host, const BootstrapConfig& config,
                                       std::uint32_t epoch);

}  // namespace rabit::bootstrap
