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
#include "collective/allreduce_cost.h"
#include "collective/scratch.h"
#include "transport/exchange.h"
#include "transport/link_set.h"

namespace rabit::collective {

struct CollectiveOptions {
  double timeout_seconds = 300;  // rabit_timeout: longest wait without progress
  // Which Allreduce algorithm each call takes (allreduce_cost.h): the link model, the keys that
  // force a choice, and whether the recursive algorithms' partner links exist.
  AllreduceChoiceOptions allreduce;
  std::size_t chunk_bytes = 64 * 1024;  // reduce/pipelining granularity
  // Pairwise steps: how far a send may run ahead of its receive (algorithms.h; tests shrink it
  // to exercise the paced path at small sizes).
  std::size_t send_ahead_bytes = kSendAheadBytes;
  int spin_microseconds = 50;  // rabit_spin_us: busy-retry before sleeping in poll()
  // rabit_local_read: a world of two ranks on one machine reduce-scatters and allreduces by
  // reading the partner's buffer (process_vm_readv) instead of through the socket, when both
  // ranks can; and local puts (mailbox_local_put.cc).
  bool local_read = true;
  // Per-peer byte counters for the status page and hang watch (transport/link_traffic.h),
  // shared with the engine's Progress; null: not counted.
  std::shared_ptr<transport::LinkTrafficTable> traffic;
};

class Communicator {
 public:
  // Takes over the links and learns the whole tree, which Broadcast needs to know where data
  // comes from, and which ranks share a machine's cores, which the cost model needs (one
  // Allgather of every rank's parent, cores and machine, op #0; rank_placement.h). Every rank
  // of the LinkSet's world must call it at the same time.
  static treering::Result<std::unique_ptr<Communicator>> Create(
      transport::LinkSet links, CollectiveOptions options,
      transport::AbortWatch* abort_watch = nullptr);

  int rank() const { return links_.topology().rank; }
  int world() const { return links_.topology().world; }
  const CollectiveOptions& options() const { return options_; }
  // The algorithm an Allreduce of `bytes` takes here (the same on every rank).
  AllreduceAlgorithm AllreduceChoice(std::size_t bytes) const {
    return ChooseAllreduce(options_.allreduce, world(), bytes);
  }

  // Adds the links to RecursivePartners that the bootstrap did not make (the socket engine makes
  // them after Create, bootstrap/partner_links.h) and enables the recursive algorithms. Every
  // rank must call it, or none.
  treering::Status AddRecursiveLinks(std::vector<transport::Link> links);
  // RecursivePartners of this rank it has no link to yet.
  std::vector<int> MissingRecursivePartners();

  treering::Status Allreduce(std::uint64_t seq, void* buf, std::size_t count, DataType type,
                             OpKind op);
  treering::Status Broadcast(std::uint64_t seq, void* buf, std::size_t bytes, int root);
  treering::Status Allgather(std::uint64_t seq, void* buf,
                             const std::vector<std::size_t>& slice_bytes);
  // counts[r]: rank r's elements of buf; the ring reduce-scatter (ring_reduce_scatter.cc).
  treering::Status ReduceScatter(std::uint64_t seq, void* buf,
                                 const std::vector<std::size_t>& counts, DataType type, OpKind op);

  // Whether rank `peer` runs on this rank's machine (the same boot id, rank_placement.h).
  bool SameMachine(int peer) const {
    return peer >= 0 && static_cast<std::size_t>(peer) < machine_of_.size() &&
           machine_of_[peer] == machine_of_[rank()];
  }

  // Whether ReduceScatter and Allreduce read the partner's buffer (local_pair_reduction.cc)
  // since their probe.
  bool LocalReadsOn() const { return local_read_.mode == LocalReadState::Mode::kOn; }
  bool LocalReadsProbed() const { return local_read_.mode != LocalReadState::Mode::kUntried; }

  // Closes every link (used at shutdown; also done on the first failure).
  void Close() { links_.CloseAll(); }

  // Called with the first failure BEFORE the links are closed. Closing wakes the neighbours,
  // whose own "link closed" reports would otherwise race this rank's report of the real cause
  // (e.g. "rank 1 never started this op") to the tracker, which keeps the first it receives.
  void SetFailureHook(std::function<void(const treering::Status&)> hook) {
    failure_hook_ = std::move(hook);
  }

 private:
  Communicator(transport::LinkSet links, CollectiveOptions options,
               transport::AbortWatch* abort_watch);
  treering::Status LearnTree();
  treering::Status CheckRecursiveLinks();
  treering::Status Finish(treering::Status status);
  transport::ExchangeOptions ExchangeOptionsFor() const;
  // Whether a pair reduction of `bytes` tries the cross-memory path (local_pair_reduction.cc):
  // a world of two on one machine, the probe not failed, and at least `min_bytes`.
  bool LocalPairMayRead(std::size_t bytes, std::size_t min_bytes) const {
    return same_machine_pair_ && local_read_.mode != LocalReadState::Mode::kOff &&
           bytes >= min_bytes;
  }

  transport::LinkSet links_;
  CollectiveOptions options_;
  transport::AbortWatch* abort_watch_;
  ScratchArena scratch_;
  std::vector<int> parent_of_;             // the whole tree: parent_of_[r] is rank r's parent
  std::vector<std::uint64_t> machine_of_;  // machine_of_[r]: rank r's machine (LearnTree)
  bool same_machine_pair_ = false;         // world of two on one machine (LearnTree)
  LocalReadState local_read_;              // .enabled = options_.local_read
  treering::Status failure_;
  std::function<void(const treering::Status&)> failure_hook_;
};

}  // namespace rabit::collective
