// Communicator: runs collective number `seq` over a bootstrapped LinkSet. This is the seam the
// engines build on: the socket engine numbers the ops and owns the tracker connection; a
// fault-tolerant engine can wrap it, and rebuild links by constructing a new Communicator.
//
// Failure contract: the first failed collective closes every link (so neighbours blocked on us
// fail at once instead of waiting for their timeout) and every later call returns that error.
// Thread contract: one thread at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <vector>

#include "collective/algorithms.h"
#include "collective/scratch.h"
#include "transport/exchange.h"
#include "transport/link_set.h"

namespace rabit::transport {

struct CollectiveOptions {
  double timeout_seconds = 300;  // rabit_timeout: longest wait without progress
  // rabit_reduce_ring_mincount: Allreduce messages of at least this many bytes use the ring
  // (0 forces the ring, max() forces the tree). Default chosen by bench/comm measurements.
  std::size_t ring_min_bytes = 1 << 20;
  // In a world of two the pair exchange (both ranks send everything at once) replaces:
  // rabit_reduce_pair_mincount: the ring, for messages of at least this many bytes (the same
  // bytes on the wire in one lap instead of two: ~4.3 vs ~2.3 GB/s here, bound or not);
  // rabit_reduce_pair_maxcount: the tree, for messages of at most this many bytes; 0 = never.
  // It wins there only with the two ranks on separate cores, so it is 0 unless treering-submit
  // pinned the workers (docs/collectives.md, Placement). Both apply only below
  // pair_halving_min_bytes, which takes precedence.
  std::size_t pair_min_bytes = 1 << 20;
  std::size_t pair_max_bytes = 0;
  // rabit_reduce_pair_halving_mincount: in a world of two, Allreduce messages of at least this
  // many bytes use the pair halving exchange (reduce-scatter + allgather streamed; each rank
  // reduces half) instead of any of the above: it beat the pair exchange and the tree from
  // 256 KiB, bound or not (docs/benchmarks.md).
  std::size_t pair_halving_min_bytes = 256 * 1024;
  // rabit_reduce_halving_mincount: in a world of four, Allreduce messages of at least this
  // many bytes use recursive halving-doubling (two pairwise steps each way) instead of the ring.
  std::size_t halving_min_bytes = 1 << 20;
  std::size_t chunk_bytes = 64 * 1024;  // reduce/pipelining granularity
  int spin_microseconds = 50;           // rabit_spin_us: busy-retry before sleeping in poll()
};

enum class AllreduceAlgorithm { kTree, kRing, kPair, kPairHalving, kHalving };
// Which algorithm an Allreduce of `bytes` takes in a world of `world` ranks (every rank decides
// the same from the same options).
AllreduceAlgorithm ChooseAllreduce(const CollectiveOptions& options, int world, std::size_t bytes);

class Communicator {
 public:
  // Takes over the links and learns the whole tree (one Allgather of every rank's parent, op
  // #0), which Broadcast needs to know where data comes from. Every rank of the LinkSet's world
  // must call it at the same time.
  static treering::Result<std::unique_ptr<Communicator>> Create(LinkSet links,
                                                                CollectiveOptions options,
                                                                AbortWatch* abort_watch = nullptr);

  int rank() const { return links_.topology().rank; }
  int world() const { return links_.topology().world; }
  const CollectiveOptions& options() const { return options_; }

  treering::Status Allreduce(std::uint64_t seq, void* buf, std::size_t count, DataType type,
                             OpKind op);
  treering::Status Broadcast(std::uint64_t seq, void* buf, std::size_t bytes, int root);
  treering::Status Allgather(std::uint64_t seq, void* buf,
                             const std::vector<std::size_t>& slice_bytes);

  // Closes every link (used at shutdown; also done on the first failure).
  void Close() { links_.CloseAll(); }

  // Called with the first failure BEFORE the links are closed. Closing wakes the neighbours,
  // whose own "link closed" reports would otherwise race this rank's report of the real cause
  // (e.g. "rank 1 never started this op") to the tracker, which keeps the first it receives.
  void SetFailureHook(std::function<void(const treering::Status&)> hook) {
    failure_hook_ = std::move(hook);
  }

 private:
  Communicator(LinkSet links, CollectiveOptions options, AbortWatch* abort_watch);
  treering::Status LearnTree();
  treering::Status Finish(treering::Status status);
  ExchangeOptions ExchangeOptionsFor() const;

  LinkSet links_;
  CollectiveOptions options_;
  AbortWatch* abort_watch_;
  ScratchArena scratch_;
  std::vector<int> parent_of_;  // the whole tree: parent_of_[r] is rank r's parent
  treering::Status failure_;
  std::function<void(const treering::Status&)> failure_hook_;
};

}  // namespace rabit::transport
