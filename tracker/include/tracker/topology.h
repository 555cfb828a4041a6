// Tree and ring topology as pure functions (unit-tested against the N=7 vector in
// shared/reference/rabit-xgboost-notes.md §1.4). Rabit's construction: a binary-heap tree, a
// ring from a DFS of it with the last child's subtree reversed, then ranks relabelled so that
// ring order == rank order (ring prev/next of r are r-1 / r+1 mod N); <= 5 links per worker.
#pragma once

#include <cstdint>
#include <vector>

namespace treering::topo {

struct WorkerLinks {
  std::int32_t parent = -1;                   // -1 for the root
  std::vector<std::int32_t> tree_neighbours;  // parent first (if any), then children ascending
  std::int32_t ring_prev = -1;                // -1 when world == 1
  std::int32_t ring_next = -1;
};

// links[r] for every rank r in [0, world). world >= 1.
std::vector<WorkerLinks> BuildTopology(int world);

// Every rank `self` keeps a socket to: tree neighbours U {ring_prev, ring_next}, ascending,
// without duplicates or itself. The lower-ranked ones are dialled, the higher ones accepted.
std::vector<std::int32_t> LinkedPeers(const WorkerLinks& links, std::int32_t self);

}  // namespace treering::topo
