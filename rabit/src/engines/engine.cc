// The Engine defaults for Barrier and the rooted collectives (engine.h).
#include "engines/engine.h"

#include <cstring>

#include "collective/reducer.h"
#include "collective/rooted_algorithms.h"

namespace rabit::engine {
namespace {

std::size_t OffsetOf(const std::vector<std::size_t>& slice_bytes, int rank) {
  std::size_t offset = 0;
  for (int r = 0; r < rank; ++r) offset += slice_bytes[r];
  return offset;
}

std::size_t TotalOf(const std::vector<std::size_t>& slice_bytes) {
  return OffsetOf(slice_bytes, static_cast<int>(slice_bytes.size()));
}

}  // namespace

Status Engine::Barrier() {
  std::uint8_t token = 0;
  return Allreduce(&token, 1, DataType::kUInt8, OpKind::kMax, nullptr);
}

Status Engine::Reduce(void* buf, std::size_t count, DataType type, OpKind op, int root) {
  Status valid = transport::CheckRooted("Reduce", root, WorldSize(), nullptr);
  if (!valid.ok()) return valid;
  auto reduce = transport::SelectReducer(type, op);
  if (!reduce.ok()) return reduce.status();
  auto* data = static_cast<std::uint8_t*>(buf);
  if (transport::PointToPoint* p2p = Messages()) {
    return transport::BinomialReduce(*p2p, data, count, type, reduce.value(), root,
                                     rooted_scratch_);
  }
  const std::size_t bytes = count * DataTypeSize(type);
  std::uint8_t* copy = rooted_scratch_.Get(0, bytes);
  if (bytes != 0) std::memcpy(copy, data, bytes);
  Status reduced = Allreduce(copy, count, type, op, nullptr);
  if (reduced.ok() && Rank() == root && bytes != 0) std::memcpy(data, copy, bytes);
  return reduced;
}

Status Engine::Gather(const void* send, void* recv, const std::vector<std::size_t>& slice_bytes,
                      int root) {
  Status valid = transport::CheckRooted("Gather", root, WorldSize(), &slice_bytes);
  if (!valid.ok()) return valid;
  if (transport::PointToPoint* p2p = Messages()) {
    return transport::BinomialGather(*p2p, static_cast<const std::uint8_t*>(send),
                                     static_cast<std::uint8_t*>(recv), slice_bytes, root,
                                     rooted_scratch_);
  }
  const std::size_t total = TotalOf(slice_bytes);
  std::uint8_t* all = rooted_scratch_.Get(0, total);
  if (slice_bytes[Rank()] != 0) {
    std::memcpy(all + OffsetOf(slice_bytes, Rank()), send, slice_bytes[Rank()]);
  }
  Status gathered = Allgather(all, slice_bytes);
  if (gathered.ok() && Rank() == root && total != 0) std::memcpy(recv, all, total);
  return gathered;
}

Status Engine::Scatter(const void* send, void* recv, const std::vector<std::size_t>& slice_bytes,
                       int root) {
  Status valid = transport::CheckRooted("Scatter", root, WorldSize(), &slice_bytes);
  if (!valid.ok()) return valid;
  if (transport::PointToPoint* p2p = Messages()) {
    return transport::BinomialScatter(*p2p, static_cast<const std::uint8_t*>(send),
                                      static_cast<std::uint8_t*>(recv), slice_bytes, root,
                                      rooted_scratch_);
  }
  const std::size_t total = TotalOf(slice_bytes);
  std::uint8_t* all = rooted_scratch_.Get(0, total);
  if (Rank() == root && total != 0) std::memcpy(all, send, total);
  Status sent = Broadcast(all, total, root);
  if (sent.ok() && slice_bytes[Rank()] != 0) {
    std::memcpy(recv, all + OffsetOf(slice_bytes, Rank()), slice_bytes[Rank()]);
  }
  return sent;
}

Status Engine::ReduceScatter(void* buf, const std::vector<std::size_t>& counts, DataType type,
                             OpKind op) {
  if (counts.size() != static_cast<std::size_t>(WorldSize())) {
    return Status::InvalidInput("ReduceScatter: " + std::to_string(counts.size()) +
                                " slice sizes given for a world of " + std::to_string(WorldSize()));
  }
  return Allreduce(buf, TotalOf(counts), type, op, nullptr);
}

}  // namespace rabit::engine
