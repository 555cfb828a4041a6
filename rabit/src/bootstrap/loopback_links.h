// Loopback bootstrap: the links of a whole N-rank world inside one process, over real TCP
// sockets on 127.0.0.1, without a tracker. Used by the in-process tests (N ranks as threads) and
// by benchmarks that want the transport without process start-up.
#pragma once

#include <vector>

#include "transport/link_set.h"

namespace rabit::bootstrap {

// Rabit-shaped topology for `rank`: binary-heap tree (parent (r-1)/2), ring r-1 -> r -> r+1.
transport::Topology HeapTopology(int rank, int world);

// links[r] is rank r's LinkSet (tree, ring and RecursivePartners links: a Communicator over it
// may set CollectiveOptions::allreduce.recursive_links), sockets tuned for collectives.
treering::Result<std::vector<transport::LinkSet>> BuildLoopbackLinks(int world,
                                                                     int buffer_bytes = 0);

}  // namespace rabit::bootstrap

namespace rabit::bootstrap {

// Message links for point-to-point tests: out[r] holds rank r's link to every other rank
// (mailbox.h), sockets tuned like the collective links.
treering::Result<std::vector<std::vector<transport::Link>>> BuildLoopbackMessageLinks(int world);

}  // namespace rabit::bootstrap
