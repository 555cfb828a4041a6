// The Engine defaults (rabit/engine.h): the one home of the fallback collectives, shared by
// every engine and by test engines.
#include "rabit/engine.h"

#include <unistd.h>

#include <cstring>

#include "collective/reducer.h"
#include "collective/rooted_algorithms.h"
#include "collective/scratch.h"

namespace rabit {
namespace {

using treering::Status;

std::size_t OffsetOf(const std::vector<std::size_t>& slice_bytes, int rank) {
  std::size_t offset = 0;
  for (int r = 0; r < rank; ++r) offset += slice_bytes[r];
  return offset;
}

std::size_t TotalOf(const std::vector<std::size_t>& slice_bytes) {
  return OffsetOf(slice_bytes, static_cast<int>(slice_bytes.size()));
}

}  // namespace

struct Engine::DefaultsState {
  collective::ScratchArena rooted_scratch;  // kept: a fresh buffer per call is page-fault bound
  int version = 0;
};

// The rooted defaults' one rule: check the call, then the binomial tree over this engine's
// messages, or (an engine without them, such as the robust one) collectives on copies.
template <typename Tree, typename OnCopies>
Status Engine::Rooted(const char* call, int root, const std::vector<std::size_t>* slice_bytes,
                      const Tree& tree, const OnCopies& on_copies) {
  Status valid = collective::CheckRooted(call, root, WorldSize(), slice_bytes);
  if (!valid.ok()) return valid;
  auto p2p = Messages();
  collective::ScratchArena& scratch = defaults_->rooted_scratch;
  return p2p.ok() ? tree(*p2p.value(), scratch) : on_copies(scratch);
}

Engine::Engine() : defaults_(std::make_unique<DefaultsState>()) {}
Engine::~Engine() = default;

std::string Engine::ProcessorName() const {
  char name[256] = {0};
  if (gethostname(name, sizeof(name) - 1) != 0) return "localhost";
  return name;
}

treering::Result<PointToPoint*> Engine::Messages() {
  return Status::InvalidInput("this engine has no point-to-point messages (Send/Recv)");
}

Status Engine::Barrier() {
  std::uint8_t token = 0;
  return Allreduce(&token, 1, DataType::kUInt8, OpKind::kMax, nullptr);
}

Status Engine::Reduce(void* buf, std::size_t count, DataType type, OpKind op, int root) {
  auto* data = static_cast<std::uint8_t*>(buf);
  const auto tree = [&](PointToPoint& p2p, collective::ScratchArena& scratch) {
    auto reduce = collective::SelectReducer(type, op);
    if (!reduce.ok()) return reduce.status();
    return collective::BinomialReduce(p2p, data, count, type, reduce.value(), root, scratch);
  };
  const auto on_copies = [&](collective::ScratchArena& scratch) {
    const std::size_t bytes = count * DataTypeSize(type);
    std::uint8_t* copy = scratch.Get(0, bytes);
    if (bytes != 0) std::memcpy(copy, data, bytes);
    Status reduced = Allreduce(copy, count, type, op, nullptr);
    if (reduced.ok() && Rank() == root && bytes != 0) std::memcpy(data, copy, bytes);
    return reduced;
  };
  return Rooted("Reduce", root, nullptr, tree, on_copies);
}

Status Engine::Gather(const void* send, void* recv, const std::vector<std::size_t>& slice_bytes,
                      int root) {
  const auto* mine = static_cast<const std::uint8_t*>(send);
  const auto tree = [&](PointToPoint& p2p, collective::ScratchArena& scratch) {
    return collective::BinomialGather(p2p, mine, static_cast<std::uint8_t*>(recv), slice_bytes,
                                      root, scratch);
  };
  // Everyone gathers everything; the root keeps it.
  const auto on_copies = [&](collective::ScratchArena& scratch) {
    std::uint8_t* all = scratch.Get(0, TotalOf(slice_bytes));
    if (slice_bytes[Rank()] != 0) {
      std::memcpy(all + OffsetOf(slice_bytes, Rank()), mine, slice_bytes[Rank()]);
    }
    Status gathered = Allgather(all, slice_bytes);
    const std::size_t total = TotalOf(slice_bytes);
    if (gathered.ok() && Rank() == root && total != 0) std::memcpy(recv, all, total);
    return gathered;
  };
  return Rooted("Gather", root, &slice_bytes, tree, on_copies);
}

Status Engine::Scatter(const void* send, void* recv, const std::vector<std::size_t>& slice_bytes,
                       int root) {
  const auto tree = [&](PointToPoint& p2p, collective::ScratchArena& scratch) {
    return collective::BinomialScatter(p2p, static_cast<const std::uint8_t*>(send),
                                       static_cast<std::uint8_t*>(recv), slice_bytes, root,
                                       scratch);
  };
  // The root broadcasts everything; each rank keeps its slice.
  const auto on_copies = [&](collective::ScratchArena& scratch) {
    const std::size_t total = TotalOf(slice_bytes);
    std::uint8_t* all = scratch.Get(0, total);
    if (Rank() == root && total != 0) std::memcpy(all, send, total);
    Status sent = Broadcast(all, total, root);
    if (sent.ok() && slice_bytes[Rank()] != 0) {
      std::memcpy(recv, all + OffsetOf(slice_bytes, Rank()), slice_bytes[Rank()]);
    }
    return sent;
  };
  return Rooted("Scatter", root, &slice_bytes, tree, on_copies);
}

Status Engine::ReduceScatter(void* buf, const std::vector<std::size_t>& counts, DataType type,
                             OpKind op) {
  if (counts.size() != static_cast<std::size_t>(WorldSize())) {
    return Status::InvalidInput("ReduceScatter: " + std::to_string(counts.size()) +
                                " slice sizes given for a world of " + std::to_string(WorldSize()));
  }
  return Allreduce(buf, TotalOf(counts), type, op, nullptr);
}

treering::Result<int> Engine::LoadCheckPoint(Serializable*, Serializable*) {
  return defaults_->version;  // nothing survives a restart without the robust engine
}

Status Engine::CheckPoint(const Serializable*, const Serializable*) {
  ++defaults_->version;
  return Status::Ok();
}

int Engine::VersionNumber() const { return defaults_->version; }

Status Engine::Shutdown() { return Status::Ok(); }

const char* Engine::SetPhase(const char* phase) {
  const char* previous = phase_;
  phase_ = phase;
  return previous;
}
void Engine::SetRound(int) {}
void Engine::ReportRound(const RoundReport&) {}

}  // namespace rabit
