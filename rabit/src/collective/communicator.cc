#include "collective/communicator.h"

#include <algorithm>

#include "collective/rank_placement.h"
#include "collective/recursive_layout.h"

namespace rabit::collective {

using transport::AbortWatch;
using transport::Exchange;
using transport::ExchangeOptions;
using transport::Link;
using transport::LinkEndsShareAnAddress;
using transport::LinkSet;
using transport::OpHeader;
using transport::Topology;

Communicator::Communicator(LinkSet links, CollectiveOptions options, AbortWatch* abort_watch)
    : links_(std::move(links)), options_(options), abort_watch_(abort_watch) {
  local_read_.enabled = options_.local_read;
}

treering::Result<std::unique_ptr<Communicator>> Communicator::Create(LinkSet links,
                                                                     CollectiveOptions options,
                                                                     AbortWatch* abort_watch) {
  std::unique_ptr<Communicator> comm(new Communicator(std::move(links), options, abort_watch));
  treering::Status linked = comm->CheckRecursiveLinks();
  if (!linked.ok()) return linked;
  treering::Status learnt = comm->LearnTree();
  if (!learnt.ok()) return learnt.WithContext("learning the tree topology");
  return comm;
}

// Each rank's parent and machine (rank_placement.h) in one Allgather: the whole tree for
// Broadcast, and the placement for the cost model, the same on every rank.
treering::Status Communicator::LearnTree() {
  constexpr std::size_t kSlot = RankPlacement::kBytes;
  std::vector<std::uint8_t> slots(kSlot * world());
  const auto mine = LocalPlacement(links_.topology().parent).Encode();
  std::copy(mine.begin(), mine.end(), slots.begin() + kSlot * rank());
  treering::Status gathered = Allgather(0, slots.data(), std::vector<std::size_t>(world(), kSlot));
  if (!gathered.ok()) return gathered;
  std::vector<RankPlacement> ranks;
  for (int r = 0; r < world(); ++r) {
    auto placement = RankPlacement::Decode({slots.data() + kSlot * r, kSlot});
    if (!placement.ok()) return placement.status().WithContext("rank " + std::to_string(r));
    if (placement->parent >= world()) {
      return treering::Status::Protocol("rank " + std::to_string(r) + " reports tree parent " +
                                        std::to_string(placement->parent) + " and " +
                                        std::to_string(placement->cores) + " cores");
    }
    ranks.push_back(placement.value());
  }
  parent_of_.clear();
  machine_of_.clear();
  for (const RankPlacement& r : ranks) {
    parent_of_.push_back(r.parent);
    machine_of_.push_back(r.machine);
  }
  options_.allreduce.link.ranks_beyond_cores = RanksBeyondCores(ranks);
  // Kept rather than asked per call: the address test reads both ends of the link's socket.
  same_machine_pair_ =
      world() == 2 && SameMachine(1 - rank()) && LinkEndsShareAnAddress(links_.ToPeer(1 - rank()));
  return treering::Status::Ok();
}

ExchangeOptions Communicator::ExchangeOptionsFor() const {
  ExchangeOptions out;
  out.rank = rank();
  out.timeout_seconds = options_.timeout_seconds;
  out.abort_watch = abort_watch_;
  out.spin_microseconds = options_.spin_microseconds;
  out.traffic = options_.traffic.get();
  return out;
}

treering::Status Communicator::Finish(treering::Status status) {
  if (!status.ok()) {
    failure_ = status;
    if (failure_hook_) failure_hook_(status);
    links_.CloseAll();
  }
  return status;
}

treering::Status Communicator::CheckRecursiveLinks() {
  if (!options_.allreduce.recursive_links) return treering::Status::Ok();
  for (int peer : RecursivePartners(rank(), world())) {
    if (links_.ToPeer(peer) == nullptr) {
      return treering::Status::Internal("rank " + std::to_string(rank()) +
                                        " has no link to its recursive allreduce partner rank " +
                                        std::to_string(peer));
    }
  }
  return treering::Status::Ok();
}

std::vector<int> Communicator::MissingRecursivePartners() {
  std::vector<int> out;
  for (int peer : RecursivePartners(rank(), world())) {
    if (links_.ToPeer(peer) == nullptr) out.push_back(peer);
  }
  return out;
}

treering::Status Communicator::AddRecursiveLinks(std::vector<Link> links) {
  for (Link& link : links) {
    if (links_.ToPeer(link.peer) == nullptr) links_.links().push_back(std::move(link));
  }
  options_.allreduce.recursive_links = true;
  return CheckRecursiveLinks();
}

treering::Status Communicator::Allreduce(std::uint64_t seq, void* buf, std::size_t count,
                                         DataType type, OpKind op) {
  if (!failure_.ok()) return failure_;
  const std::size_t bytes = count * DataTypeSize(type);
  auto reduce = SelectReducer(type, op, OperandOrder::kDstFirst);
  if (!reduce.ok()) return reduce.status();
  auto reduce_peer_first = SelectReducer(type, op, OperandOrder::kSrcFirst);
  if (!reduce_peer_first.ok()) return reduce_peer_first.status();
  if (world() == 1) return treering::Status::Ok();
  Exchange ex(OpHeader::ForAllreduce(seq, type, op, bytes), ExchangeOptionsFor(), &links_);
  const ReduceSpec spec{DataTypeSize(type), reduce.value(), reduce_peer_first.value(),
                        options_.chunk_bytes, options_.send_ahead_bytes};
  auto* data = static_cast<std::uint8_t*>(buf);
  const Topology& topo = links_.topology();
  if (LocalPairMayRead(bytes, kLocalAllreduceMinBytes)) {
    treering::Status read = LocalPairAllreduce(ex, topo, data, bytes, spec, scratch_, &local_read_);
    if (!read.ok() || LocalReadsOn()) return Finish(read);
  }
  switch (AllreduceChoice(bytes)) {
    case AllreduceAlgorithm::kRecursiveDoubling:
      return Finish(RecursiveDoublingAllreduce(ex, topo, data, bytes, spec, scratch_));
    case AllreduceAlgorithm::kHalvingDoubling:
      return Finish(HalvingDoublingAllreduce(ex, topo, data, bytes, spec, scratch_));
    case AllreduceAlgorithm::kRing:
      return Finish(RingAllreduce(ex, topo, data, bytes, spec, scratch_));
    case AllreduceAlgorithm::kTree:
      break;
  }
  return Finish(TreeAllreduce(ex, topo, data, bytes, spec, scratch_));
}

treering::Status Communicator::Broadcast(std::uint64_t seq, void* buf, std::size_t bytes,
                                         int root) {
  if (!failure_.ok()) return failure_;
  if (root < 0 || root >= world()) {
    return treering::Status::InvalidInput("Broadcast: root " + std::to_string(root) +
                                          " is not a rank of a world of size " +
                                          std::to_string(world()));
  }
  if (world() == 1) return treering::Status::Ok();
  Exchange ex(OpHeader::ForBroadcast(seq, root, bytes), ExchangeOptionsFor(), &links_);
  return Finish(TreeBroadcast(ex, links_.topology(), parent_of_, static_cast<std::uint8_t*>(buf),
                              bytes, root));
}

treering::Status Communicator::Allgather(std::uint64_t seq, void* buf,
                                         const std::vector<std::size_t>& slice_bytes) {
  if (!failure_.ok()) return failure_;
  if (slice_bytes.size() != static_cast<std::size_t>(world())) {
    return treering::Status::InvalidInput("Allgather: " + std::to_string(slice_bytes.size()) +
                                          " slice sizes given for a world of " +
                                          std::to_string(world()));
  }
  if (world() == 1) return treering::Status::Ok();
  std::vector<std::size_t> offsets(slice_bytes.size() + 1, 0);
  for (std::size_t r = 0; r < slice_bytes.size(); ++r) offsets[r + 1] = offsets[r] + slice_bytes[r];
  Exchange ex(OpHeader::ForAllgather(seq, slice_bytes), ExchangeOptionsFor(), &links_);
  return Finish(RingAllgather(ex, links_.topology(), static_cast<std::uint8_t*>(buf), offsets));
}

}  // namespace rabit::collective

namespace rabit::collective {

treering::Status Communicator::ReduceScatter(std::uint64_t seq, void* buf,
                                             const std::vector<std::size_t>& counts, DataType type,
                                             OpKind op) {
  if (!failure_.ok()) return failure_;
  if (counts.size() != static_cast<std::size_t>(world())) {
    return treering::Status::InvalidInput("ReduceScatter: " + std::to_string(counts.size()) +
                                          " slice sizes given for a world of " +
                                          std::to_string(world()));
  }
  auto reduce = SelectReducer(type, op, OperandOrder::kDstFirst);
  if (!reduce.ok()) return reduce.status();
  if (world() == 1) return treering::Status::Ok();
  const std::size_t element = DataTypeSize(type);
  std::vector<std::size_t> slice_bytes(counts.size());
  std::vector<std::size_t> offsets(counts.size() + 1, 0);
  for (std::size_t r = 0; r < counts.size(); ++r) {
    slice_bytes[r] = counts[r] * element;
    offsets[r + 1] = offsets[r] + slice_bytes[r];
  }
  Exchange ex(OpHeader::ForReduceScatter(seq, type, op, slice_bytes), ExchangeOptionsFor(),
              &links_);
  const ReduceSpec spec{element, reduce.value(), nullptr, options_.chunk_bytes};
  auto* data = static_cast<std::uint8_t*>(buf);
  if (LocalPairMayRead(offsets.back(), kLocalReadMinBytes)) {
    treering::Status read =
        LocalPairReduceScatter(ex, links_.topology(), data, offsets, spec, scratch_, &local_read_);
    if (!read.ok() || LocalReadsOn()) return Finish(read);
  }
  return Finish(RingReduceScatter(ex, links_.topology(), data, offsets, spec, scratch_));
}

}  // namespace rabit::collective
