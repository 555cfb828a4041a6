// Binomial scatter, the gather run backwards. Invariant: when relative rank v has received from
// its parent, its buffer holds the parts of its subtree [v, v + lowbit(v)) in relative order; it
// passes [v + mask, v + 2 * mask) to child v + mask, largest subtree first, and keeps its own.
#include <cstring>

#include "collective/rooted_algorithms.h"
#include "collective/rooted_layout.h"

namespace rabit::collective {

treering::Status BinomialScatter(PointToPoint& p2p, const std::uint8_t* send, std::uint8_t* recv,
                                 const std::vector<std::size_t>& slice_bytes, int root,
                                 ScratchArena& scratch) {
  const int world = p2p.world();
  treering::Status valid = CheckRooted("Scatter", root, world, &slice_bytes);
  if (!valid.ok()) return valid;
  const RootedLayout layout(slice_bytes, root, p2p.rank());
  const std::uint8_t* tmp = send;
  if (layout.v != 0) {
    std::uint8_t* got = scratch.Get(0, layout.SubtreeBytes());
    auto received = p2p.Recv(got, layout.SubtreeBytes(), DataType::kUInt8,
                             layout.Rank(layout.Parent()), kScatterTag);
    if (!received.ok()) return received.status();
    tmp = got;
  } else if (root != 0) {
    std::uint8_t* rotated = scratch.Get(0, layout.SubtreeBytes());
    layout.Rotate(send, rotated);
    tmp = rotated;
  }
  int top = 1;
  while (top * 2 < layout.span && top * 2 < world) top *= 2;
  std::vector<Ticket> pending;
  for (int mask = top; mask >= 1; mask >>= 1) {
    const int child = layout.v + mask;
    if (mask >= layout.span || child >= world) continue;
    auto ticket = p2p.Isend(tmp + layout.Offset(child), layout.Bytes(child, mask), DataType::kUInt8,
                            layout.Rank(child), kScatterTag);
    if (!ticket.ok()) return ticket.status();
    pending.push_back(ticket.value());
  }
  for (Ticket t : pending) {
    auto done = p2p.Wait(t);
    if (!done.ok()) return done.status();
  }
  const std::size_t mine = slice_bytes[p2p.rank()];
  if (mine != 0 && recv != tmp) std::memmove(recv, tmp, mine);
  return treering::Status::Ok();
}

}  // namespace rabit::collective
