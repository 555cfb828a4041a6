// Binomial reduce. Invariant: after the step with bit `mask`, relative rank v (v's low bits
// below mask all zero) holds the reduction of relative ranks [v, min(v + 2 * mask, world)):
// it received [v + mask, ...) from v + mask, which held exactly that after the previous step.
// A rank with bit `mask` set sends what it holds to v - mask and is done.
#include <cstring>

#include "collective/rooted_algorithms.h"

namespace rabit::collective {

treering::Status CheckRooted(const char* call, int root, int world,
                             const std::vector<std::size_t>* slice_bytes) {
  if (root < 0 || root >= world) {
    return treering::Status::InvalidInput(std::string(call) + ": root " + std::to_string(root) +
                                          " is not a rank of a world of size " +
                                          std::to_string(world));
  }
  if (slice_bytes != nullptr && slice_bytes->size() != static_cast<std::size_t>(world)) {
    return treering::Status::InvalidInput(
        std::string(call) + ": " + std::to_string(slice_bytes->size()) +
        " per-rank counts given for a world of " + std::to_string(world));
  }
  return treering::Status::Ok();
}

treering::Status BinomialReduce(PointToPoint& p2p, std::uint8_t* buf, std::size_t count,
                                DataType type, ReduceFn reduce, int root, ScratchArena& scratch) {
  const int world = p2p.world();
  treering::Status valid = CheckRooted("Reduce", root, world, nullptr);
  if (!valid.ok() || world == 1) return valid;
  const std::size_t bytes = count * DataTypeSize(type);
  const int v = (p2p.rank() - root + world) % world;
  // The root reduces straight into buf; any other rank into a copy, as its buf stays unchanged.
  std::uint8_t* acc = buf;
  std::uint8_t* incoming = scratch.Get(1, bytes);
  bool copied = v == 0;
  for (int mask = 1; mask < world; mask <<= 1) {
    if ((v & mask) != 0) {
      const int parent = (v - mask + root) % world;
      return p2p.Send(acc, count, type, parent, kReduceTag);
    }
    if (v + mask >= world) continue;
    const int child = (v + mask + root) % world;
    auto got = p2p.Recv(incoming, count, type, child, kReduceTag);
    if (!got.ok()) return got.status();
    if (!copied) {
      acc = scratch.Get(0, bytes);
      if (bytes != 0) std::memcpy(acc, buf, bytes);
      copied = true;
    }
    reduce(acc, incoming, count);
  }
  return treering::Status::Ok();
}

}  // namespace rabit::collective
