// Rabit's topology, rebuilt in three named steps: heap tree -> DFS ring -> relabel so that ring
// order is rank order. Pure functions, unit-tested against the vectors in the research notes.
#include "tracker/topology.h"

#include <algorithm>

namespace treering::topo {
namespace {

struct HeapTree {
  std::vector<std::int32_t> parent;                 // -1 for the root
  std::vector<std::vector<std::int32_t>> children;  // ascending
};

// Step 1: a 0-rooted binary heap over provisional ids.
HeapTree BuildHeapTree(int world) {
  HeapTree t;
  t.parent.resize(world);
  t.children.resize(world);
  for (int r = 0; r < world; ++r) {
    t.parent[r] = (r + 1) / 2 - 1;
    for (int c : {2 * r + 1, 2 * r + 2}) {
      if (c < world) t.children[r].push_back(c);
    }
  }
  return t;
}

// Step 2: DFS order where the last child's sub-list is reversed before it is appended. Closed
// into a cycle, consecutive entries are mostly tree neighbours, so the ring reuses tree links.
std::vector<std::int32_t> ShareRing(const HeapTree& t, std::int32_t r) {
  std::vector<std::int32_t> order{r};
  const auto& kids = t.children[r];
  for (std::size_t i = 0; i < kids.size(); ++i) {
    std::vector<std::int32_t> sub = ShareRing(t, kids[i]);
    if (i + 1 == kids.size()) std::reverse(sub.begin(), sub.end());
    order.insert(order.end(), sub.begin(), sub.end());
  }
  return order;
}

// Step 3: relabel so that the ring position becomes the rank, then express the tree in ranks.
std::vector<WorkerLinks> Relabel(const HeapTree& t, const std::vector<std::int32_t>& ring) {
  const int world = static_cast<int>(ring.size());
  std::vector<std::int32_t> rank_of(world);
  for (int pos = 0; pos < world; ++pos) rank_of[ring[pos]] = pos;

  std::vector<WorkerLinks> links(world);
  for (int id = 0; id < world; ++id) {
    WorkerLinks& l = links[rank_of[id]];
    l.parent = t.parent[id] < 0 ? -1 : rank_of[t.parent[id]];
    std::vector<std::int32_t> kids;
    for (std::int32_t c : t.children[id]) kids.push_back(rank_of[c]);
    std::sort(kids.begin(), kids.end());
    if (l.parent >= 0) l.tree_neighbours.push_back(l.parent);
    l.tree_neighbours.insert(l.tree_neighbours.end(), kids.begin(), kids.end());
  }
  if (world > 1) {
    for (int r = 0; r < world; ++r) {
      links[r].ring_prev = (r + world - 1) % world;
      links[r].ring_next = (r + 1) % world;
    }
  }
  return links;
}

}  // namespace

std::vector<WorkerLinks> BuildTopology(int world) {
  if (world < 1) return {};
  const HeapTree tree = BuildHeapTree(world);
  return Relabel(tree, ShareRing(tree, 0));
}

std::vector<std::int32_t> LinkedPeers(const WorkerLinks& links, std::int32_t self) {
  std::vector<std::int32_t> peers = links.tree_neighbours;
  for (std::int32_t r : {links.ring_prev, links.ring_next}) {
    if (r >= 0 && r != self) peers.push_back(r);
  }
  std::sort(peers.begin(), peers.end());
  peers.erase(std::unique(peers.begin(), peers.end()), peers.end());
  return peers;
}

}  // namespace treering::topo
