// Topology against the vectors in shared/reference/rabit-xgboost-notes.md §1.4 and the
// structural promises of topology.h for every world size up to 256.
#include "tracker/topology.h"

#include <set>

#include <gtest/gtest.h>

namespace treering::topo {
namespace {

using V = std::vector<std::int32_t>;

TEST(TopologyTest, SevenWorkersMatchRabit) {
  const auto links = BuildTopology(7);
  ASSERT_EQ(links.size(), 7u);
  const V parents{-1, 0, 1, 1, 6, 6, 0};
  const std::vector<V> neighbours{{1, 6}, {0, 2, 3}, {1}, {1}, {6}, {6}, {0, 4, 5}};
  for (int r = 0; r < 7; ++r) {
    EXPECT_EQ(links[r].parent, parents[r]) << "rank " << r;
    EXPECT_EQ(links[r].tree_neighbours, neighbours[r]) << "rank " << r;
    EXPECT_EQ(links[r].ring_prev, (r + 6) % 7);
    EXPECT_EQ(links[r].ring_next, (r + 1) % 7);
  }
}

TEST(TopologyTest, FourWorkersMatchRabit) {
  const auto links = BuildTopology(4);
  const V parents{-1, 0, 1, 0};
  for (int r = 0; r < 4; ++r) EXPECT_EQ(links[r].parent, parents[r]) << "rank " << r;
  EXPECT_EQ(links[0].tree_neighbours, (V{1, 3}));
  EXPECT_EQ(links[1].tree_neighbours, (V{0, 2}));
}

TEST(TopologyTest, TwoWorkersRingBothWaysToTheOther) {
  const auto links = BuildTopology(2);
  EXPECT_EQ(links[0].tree_neighbours, (V{1}));
  EXPECT_EQ(links[1].tree_neighbours, (V{0}));
  EXPECT_EQ(links[0].ring_prev, 1);
  EXPECT_EQ(links[0].ring_next, 1);
  EXPECT_EQ(links[1].parent, 0);
}

TEST(TopologyTest, OneWorkerHasNoLinks) {
  const auto links = BuildTopology(1);
  ASSERT_EQ(links.size(), 1u);
  EXPECT_EQ(links[0].parent, -1);
  EXPECT_TRUE(links[0].tree_neighbours.empty());
  EXPECT_EQ(links[0].ring_prev, -1);
  EXPECT_EQ(links[0].ring_next, -1);
  EXPECT_TRUE(LinkedPeers(links[0], 0).empty());
  EXPECT_TRUE(BuildTopology(0).empty());
}

// For every N: a spanning tree rooted at 0 whose links are symmetric, ring == rank order,
// at most 5 sockets per worker.
TEST(TopologyTest, StructuralPropertiesUpTo256) {
  for (int n = 2; n <= 256; ++n) {
    const auto links = BuildTopology(n);
    int edges = 0;
    for (int r = 0; r < n; ++r) {
      const WorkerLinks& l = links[r];
      EXPECT_EQ(l.ring_next, (r + 1) % n) << "n=" << n << " r=" << r;
      EXPECT_EQ(l.ring_prev, (r + n - 1) % n) << "n=" << n << " r=" << r;
      EXPECT_LE(LinkedPeers(l, r).size(), 5u) << "n=" << n << " r=" << r;
      if (r == 0) {
        EXPECT_EQ(l.parent, -1);
      }
      if (r != 0) {
        ASSERT_GE(l.parent, 0);
        EXPECT_EQ(l.tree_neighbours.front(), l.parent);
        const V& up = links[l.parent].tree_neighbours;
        EXPECT_NE(std::find(up.begin(), up.end(), r), up.end()) << "n=" << n << " r=" << r;
        ++edges;
      }
      EXPECT_EQ(std::set<std::int32_t>(l.tree_neighbours.begin(), l.tree_neighbours.end()).size(),
                l.tree_neighbours.size());
    }
    EXPECT_EQ(edges, n - 1);
    // Every rank reaches the root through parents (no cycles).
    for (int r = 0; r < n; ++r) {
      int hops = 0;
      for (int x = r; x != 0 && hops <= n; x = links[x].parent) ++hops;
      EXPECT_LE(hops, n) << "n=" << n << " r=" << r;
    }
  }
}

}  // namespace
}  // namespace treering::topo
