// RootedLayout: where each rank's part sits when the parts are laid out in the order of ranks
// relative to a root (relative rank u is rank (u + root) mod world), and the binomial subtree
// of this rank. Shared by the binomial gather and scatter.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace rabit::collective {

struct RootedLayout {
  int world;
  int root;
  int v;                                // this rank, relative to root
  int span;                             // this rank's subtree is [v, v + span) clipped to the world
  std::vector<std::size_t> rel_offset;  // world + 1 prefix sums in relative order

  RootedLayout(const std::vector<std::size_t>& slice_bytes, int root_rank, int rank)
      : world(static_cast<int>(slice_bytes.size())),
        root(root_rank),
        v((rank - root_rank + world) % world),
        span(v == 0 ? world : (v & -v)),
        rel_offset(slice_bytes.size() + 1, 0) {
    for (int u = 0; u < world; ++u) rel_offset[u + 1] = rel_offset[u] + slice_bytes[Rank(u)];
  }

  int Rank(int relative) const { return (relative + root) % world; }
  int Parent() const { return v - (v & -v); }
  int End(int first, int width) const { return first + width < world ? first + width : world; }
  // Bytes of the parts of relative ranks [first, first + width) (clipped).
  std::size_t Bytes(int first, int width) const {
    return rel_offset[End(first, width)] - rel_offset[first];
  }
  std::size_t SubtreeBytes() const { return Bytes(v, span); }
  // Where relative rank u's part starts in this rank's subtree buffer.
  std::size_t Offset(int u) const { return rel_offset[u] - rel_offset[v]; }

  // Relative order (the root's buffer) to rank order, and back: a rotation by root's offset.
  void Unrotate(const std::uint8_t* relative, std::uint8_t* ranked) const {
    const std::size_t total = rel_offset[world];
    const std::size_t head = total - RankOffsetOfRoot();  // parts of ranks root..world-1
    if (head != 0) std::memcpy(ranked + RankOffsetOfRoot(), relative, head);
    if (total != head) std::memcpy(ranked, relative + head, total - head);
  }
  void Rotate(const std::uint8_t* ranked, std::uint8_t* relative) const {
    const std::size_t total = rel_offset[world];
    const std::size_t head = total - RankOffsetOfRoot();
    if (head != 0) std::memcpy(relative, ranked + RankOffsetOfRoot(), head);
    if (total != head) std::memcpy(relative + head, ranked, total - head);
  }

 private:
  // Bytes of ranks 0..root-1, i.e. the relative parts of world-root .. world-1.
  std::size_t RankOffsetOfRoot() const { return rel_offset[world] - rel_offset[world - root]; }
};

}  // namespace rabit::collective
