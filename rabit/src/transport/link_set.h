// LinkSet: the bootstrapped connections of one rank to its tree and ring neighbours, plus the
// topology they realise. Built once by a bootstrap (tracker or loopback) and then only used by
// the algorithms; rebuilding links after a failure is a separate step (a new LinkSet).
//
// Topology contract (Rabit's): ring_prev == rank-1 and ring_next == rank+1 (mod world), so ring
// algorithms can compute segment ownership from ranks; the tree is any spanning tree, given as
// parent + children. One socket serves a peer that is both a tree and a ring neighbour.
#pragma once

#include <cstdint>
#include <vector>

#include "transport/tcp_socket.h"

namespace rabit::transport {

struct Topology {
  int rank = 0;
  int world = 1;
  int parent = -1;            // -1 for the tree root
  std::vector<int> children;  // tree children
  int ring_prev = -1;         // -1 when world == 1
  int ring_next = -1;

  // Parent (if any) then children: every tree neighbour once.
  std::vector<int> TreeNeighbours() const;
  // Every distinct peer this rank needs a link to.
  std::vector<int> AllNeighbours() const;
};

struct Link {
  int peer = -1;
  TcpSocket socket;
};

// Both ends of the link have one IP address (loopback, or two workers on one host's address):
// the same answer at both ends. Ranks in network namespaces of one kernel (the simulated
// cluster, containers) share a boot id but reach each other through their own addresses, and
// their traffic must keep crossing those links, so "same machine" alone does not allow
// cross-memory shortcuts.
bool LinkEndsShareAnAddress(const Link* link);

class LinkSet {
 public:
  LinkSet() = default;
  LinkSet(Topology topology, std::vector<Link> links)
      : topology_(std::move(topology)), links_(std::move(links)) {}

  const Topology& topology() const { return topology_; }
  // The link to `peer`, or nullptr when the topology has none.
  Link* ToPeer(int peer);
  std::vector<Link>& links() { return links_; }
  // Closes every socket so that neighbours blocked on us fail at once instead of timing out.
  void CloseAll();

 private:
  Topology topology_;
  std::vector<Link> links_;
};

}  // namespace rabit::transport
