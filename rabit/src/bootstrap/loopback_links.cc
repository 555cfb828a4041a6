#include "bootstrap/loopback_links.h"

#include <algorithm>

#include "collective/recursive_layout.h"

namespace rabit::bootstrap {

transport::Topology HeapTopology(int rank, int world) {
  transport::Topology t;
  t.rank = rank;
  t.world = world;
  t.parent = rank == 0 ? -1 : (rank - 1) / 2;
  for (int c : {2 * rank + 1, 2 * rank + 2}) {
    if (c < world) t.children.push_back(c);
  }
  if (world > 1) {
    t.ring_prev = (rank + world - 1) % world;
    t.ring_next = (rank + 1) % world;
  }
  return t;
}

treering::Result<std::vector<transport::LinkSet>> BuildLoopbackLinks(int world, int buffer_bytes) {
  std::vector<transport::Topology> topo;
  std::vector<std::vector<transport::Link>> links(world);
  for (int r = 0; r < world; ++r) topo.push_back(HeapTopology(r, world));
  const transport::Deadline deadline = transport::DeadlineAfter(30);
  for (int low = 0; low < world; ++low) {
    auto listener = transport::TcpSocket::Listen(0);
    if (!listener.ok()) return listener.status();
    // The tree and ring neighbours, and the recursive allreduces' partners.
    std::vector<int> peers = topo[low].AllNeighbours();
    for (int partner : collective::RecursivePartners(low, world)) {
      if (std::find(peers.begin(), peers.end(), partner) == peers.end()) peers.push_back(partner);
    }
    for (int high : peers) {
      if (high <= low) continue;
      // Dial, then accept at once: the accepted socket is the one just dialled.
      auto dialled = transport::TcpSocket::Connect("127.0.0.1", listener->port(), deadline);
      if (!dialled.ok()) return dialled.status();
      auto accepted = listener->Accept(deadline);
      if (!accepted.ok()) return accepted.status();
      links[high].push_back(transport::Link{low, std::move(dialled.value())});
      links[low].push_back(transport::Link{high, std::move(accepted.value())});
    }
  }
  std::vector<transport::LinkSet> out;
  for (int r = 0; r < world; ++r) {
    for (transport::Link& link : links[r]) {
      treering::Status tuned = link.socket.TuneForCollectives(buffer_bytes);
      if (!tuned.ok()) return tuned;
    }
    out.emplace_back(topo[r], std::move(links[r]));
  }
  return out;
}

}  // namespace rabit::bootstrap

namespace rabit::bootstrap {

treering::Result<std::vector<std::vector<transport::Link>>> BuildLoopbackMessageLinks(int world) {
  std::vector<std::vector<transport::Link>> links(world);
  const transport::Deadline deadline = transport::DeadlineAfter(30);
  for (int low = 0; low < world; ++low) {
    auto listener = transport::TcpSocket::Listen(0);
    if (!listener.ok()) return listener.status();
    for (int high = low + 1; high < world; ++high) {
      auto dialled = transport::TcpSocket::Connect("127.0.0.1", listener->port(), deadline);
      if (!dialled.ok()) return dialled.status();
      auto accepted = listener->Accept(deadline);
      if (!accepted.ok()) return accepted.status();
      links[high].push_back(transport::Link{low, std::move(dialled.value())});
      links[low].push_back(transport::Link{high, std::move(accepted.value())});
    }
  }
  for (auto& rank_links : links) {
    for (transport::Link& link : rank_links) {
      treering::Status tuned = link.socket.TuneForCollectives(0);
      if (!tuned.ok()) return tuned;
    }
  }
  return links;
}

}  // namespace rabit::bootstrap
