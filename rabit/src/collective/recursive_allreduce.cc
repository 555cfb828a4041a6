// Recursive doubling and halving-doubling allreduce for any world size, as schedules of
// pairwise steps (pairwise_steps.cc) over the fold layout of recursive_layout.h:
//   * recursive doubling (latency: lg q steps of the whole vector, both partners reduce it):
//     core step j, partners c and c ^ 2^j swap their partial results and both reduce;
//   * halving-doubling (Rabenseifner; bandwidth: each rank sends 2(q-1)/q of the vector in
//     2 lg q steps): a reduce-scatter by recursive halving, step j splitting the range both
//     partners hold in two (the lower half to the partner whose bit j is 0), then an allgather
//     by recursive doubling, the steps backwards, each partner sending the range it completed.
// Both take the steps in the same order of j (distance 1 first), and in every reduction the
// lower-ranked group's value is the left operand (PairwiseStep::peer_on_left), so each element
// is reduced along the same tree in both algorithms and on every rank: which of the two runs
// never changes a result (tested bit for bit). Non-power-of-two worlds fold first and unfold
// last (the whole vector each way; Thakur's halved fold is left for later).
#include <algorithm>

#include "collective/algorithms.h"
#include "collective/recursive_layout.h"

namespace rabit::collective {

using transport::Exchange;
using transport::Topology;

namespace {

struct Range {
  std::size_t begin = 0;  // bytes
  std::size_t bytes = 0;
};

PairwiseStep Swap(int peer, Range send, Range recv, bool reduce, bool peer_on_left) {
  return PairwiseStep{peer, send.begin, send.bytes, recv.begin, recv.bytes, reduce, peer_on_left};
}

// The fold's first step, or empty when this rank is not in a fold pair.
void FoldIn(const RecursiveLayout& l, int rank, std::size_t bytes, std::vector<PairwiseStep>* out) {
  if (l.SitsOut(rank)) out->push_back(Swap(rank + 1, {0, bytes}, {0, 0}, false, false));
  if (l.TakesFold(rank)) out->push_back(Swap(rank - 1, {0, 0}, {0, bytes}, true, true));
}

// The result back to the rank that sat out.
void FoldOut(const RecursiveLayout& l, int rank, std::size_t bytes,
             std::vector<PairwiseStep>* out) {
  if (l.SitsOut(rank)) out->push_back(Swap(rank + 1, {0, 0}, {0, bytes}, false, false));
  if (l.TakesFold(rank)) out->push_back(Swap(rank - 1, {0, bytes}, {0, 0}, false, false));
}

std::vector<PairwiseStep> DoublingSteps(int rank, int world, std::size_t bytes) {
  const RecursiveLayout l = RecursiveLayout::For(world);
  std::vector<PairwiseStep> steps;
  FoldIn(l, rank, bytes, &steps);
  const int c = l.CoreIndex(rank);
  for (int j = 0; c >= 0 && j < l.Steps(); ++j) {
    const bool upper = ((c >> j) & 1) != 0;
    steps.push_back(Swap(l.RankOfCore(c ^ (1 << j)), {0, bytes}, {0, bytes}, true, upper));
  }
  FoldOut(l, rank, bytes, &steps);
  return steps;
}

std::vector<PairwiseStep> HalvingSteps(int rank, int world, std::size_t bytes,
                                       std::size_t element_bytes) {
  const RecursiveLayout l = RecursiveLayout::For(world);
  std::vector<PairwiseStep> steps;
  FoldIn(l, rank, bytes, &steps);
  const int c = l.CoreIndex(rank);
  if (c >= 0) {
    // held[j]: the elements this rank and its step-j partner both hold before step j.
    std::vector<std::size_t> lo{0}, hi{bytes / element_bytes};
    std::vector<Range> kept, given;
    for (int j = 0; j < l.Steps(); ++j) {
      const std::size_t mid = lo[j] + (hi[j] - lo[j] + 1) / 2;
      const bool upper = ((c >> j) & 1) != 0;
      const Range low{lo[j] * element_bytes, (mid - lo[j]) * element_bytes};
      const Range high{mid * element_bytes, (hi[j] - mid) * element_bytes};
      kept.push_back(upper ? high : low);
      given.push_back(upper ? low : high);
      lo.push_back(upper ? mid : lo[j]);
      hi.push_back(upper ? hi[j] : mid);
      steps.push_back(Swap(l.RankOfCore(c ^ (1 << j)), given[j], kept[j], true, upper));
    }
    for (int j = l.Steps() - 1; j >= 0; --j) {
      steps.push_back(Swap(l.RankOfCore(c ^ (1 << j)), kept[j], given[j], false, false));
    }
  }
  FoldOut(l, rank, bytes, &steps);
  return steps;
}

}  // namespace

treering::Status RecursiveDoublingAllreduce(Exchange& ex, const Topology& topo, std::uint8_t* buf,
                                            std::size_t bytes, const ReduceSpec& spec,
                                            ScratchArena& scratch) {
  return RunPairwiseSteps(ex, buf, DoublingSteps(topo.rank, topo.world, bytes), spec, scratch);
}

treering::Status HalvingDoublingAllreduce(Exchange& ex, const Topology& topo, std::uint8_t* buf,
                                          std::size_t bytes, const ReduceSpec& spec,
                                          ScratchArena& scratch) {
  return RunPairwiseSteps(ex, buf, HalvingSteps(topo.rank, topo.world, bytes, spec.element_bytes),
                          spec, scratch);
}

}  // namespace rabit::collective
