// Binomial gather. Relative rank v's subtree is [v, v + lowbit(v)) (the root's: every rank),
// clipped to the world; the parts of a subtree are contiguous in relative order. Invariant:
// when v sends, its buffer holds its subtree's parts in relative order, because each child
// v + mask (mask < lowbit(v)) sent exactly the parts of [v + mask, v + 2 * mask).
#include <cstring>

#include "collective/rooted_algorithms.h"
#include "collective/rooted_layout.h"

namespace rabit::collective {

treering::Status BinomialGather(PointToPoint& p2p, const std::uint8_t* send, std::uint8_t* recv,
                                const std::vector<std::size_t>& slice_bytes, int root,
                                ScratchArena& scratch) {
  const int world = p2p.world();
  treering::Status valid = CheckRooted("Gather", root, world, &slice_bytes);
  if (!valid.ok()) return valid;
  const RootedLayout layout(slice_bytes, root, p2p.rank());
  const std::size_t mine = slice_bytes[p2p.rank()];
  // The root with rank 0 gathers straight into recv (relative order is rank order there).
  std::uint8_t* tmp = layout.v == 0 && root == 0 ? recv : scratch.Get(0, layout.SubtreeBytes());
  if (mine != 0) std::memcpy(tmp, send, mine);
  std::vector<Ticket> pending;
  for (int mask = 1; mask < layout.span && layout.v + mask < world; mask <<= 1) {
    const int child = layout.v + mask;
    auto ticket = p2p.Irecv(tmp + layout.Offset(child), layout.Bytes(child, mask), DataType::kUInt8,
                            layout.Rank(child), kGatherTag);
    if (!ticket.ok()) return ticket.status();
    pending.push_back(ticket.value());
  }
  for (Ticket t : pending) {
    auto done = p2p.Wait(t);
    if (!done.ok()) return done.status();
  }
  if (layout.v != 0) {
    return p2p.Send(tmp, layout.SubtreeBytes(), DataType::kUInt8, layout.Rank(layout.Parent()),
                    kGatherTag);
  }
  if (tmp != recv) layout.Unrotate(tmp, recv);
  return treering::Status::Ok();
}

}  // namespace rabit::collective
