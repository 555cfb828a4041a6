#include "collective/allreduce_cost.h"

#include <algorithm>

#include "collective/recursive_layout.h"

namespace rabit::collective {
namespace {

int FloorLog2(int x) {
  int out = 0;
  while ((2 << out) <= x) ++out;
  return out;
}

}  // namespace

const char* AllreduceAlgorithmName(AllreduceAlgorithm algorithm) {
  switch (algorithm) {
    case AllreduceAlgorithm::kTree:
      return "tree";
    case AllreduceAlgorithm::kRing:
      return "ring";
    case AllreduceAlgorithm::kRecursiveDoubling:
      return "doubling";
    case AllreduceAlgorithm::kHalvingDoubling:
      return "halving";
  }
  return "?";
}

double PredictAllreduceSeconds(AllreduceAlgorithm algorithm, const LinkModel& link, int world,
                               std::size_t bytes) {
  if (world <= 1) return 0;
  const double a = link.latency_seconds;
  const double nb = static_cast<double>(bytes) / link.bytes_per_second;         // n * beta
  const double ng = static_cast<double>(bytes) / link.reduce_bytes_per_second;  // n * gamma
  const double p = world;
  const RecursiveLayout l = RecursiveLayout::For(world);
  const double q = l.core;
  const double steps = l.Steps();
  // A recursive step's latency: alpha, plus the oversubscribed ranks' waits for a core.
  const double step_a = a + link.ranks_beyond_cores * link.core_wait_seconds;
  // Fold in (whole vector, reduced) and out (whole vector) for the ranks beyond the core.
  const double fold = l.folded > 0 ? 2 * a + 2 * nb + ng : 0;
  switch (algorithm) {
    case AllreduceAlgorithm::kTree: {
      // Binary heap tree, pipelined: latency up and down the depth; an inner node moves its
      // children's vectors and its parent's through its links, and reduces its children's.
      const double fanout = std::min(2, world - 1);
      return 2 * FloorLog2(world) * a + (fanout + 1) * nb + fanout * ng;
    }
    case AllreduceAlgorithm::kRing:
      // Each of its 2(p-1) steps also waits for a neighbour that may be off its core: with the
      // 4 MiB send-ahead, halving beat the ring at 1 MiB on 4 and 8 ranks over 2 cores
      // (docs/benchmarks.md, quiet reruns after session 5) where this term was missing.
      return 2 * (p - 1) * step_a + 2 * (p - 1) / p * nb + (p - 1) / p * ng;
    case AllreduceAlgorithm::kRecursiveDoubling:
      return fold + steps * (step_a + nb + ng);
    case AllreduceAlgorithm::kHalvingDoubling:
      return fold + 2 * steps * step_a + 2 * (q - 1) / q * nb + (q - 1) / q * ng;
  }
  return 0;
}

AllreduceAlgorithm ChooseAllreduce(const AllreduceChoiceOptions& options, int world,
                                   std::size_t bytes) {
  auto recursive = [](AllreduceAlgorithm a) {
    return a == AllreduceAlgorithm::kRecursiveDoubling || a == AllreduceAlgorithm::kHalvingDoubling;
  };
  if (options.forced && (options.recursive_links || !recursive(*options.forced))) {
    return *options.forced;
  }
  if (options.ring_min_bytes && bytes >= *options.ring_min_bytes) return AllreduceAlgorithm::kRing;
  // Ties go to the earlier entry, so the choice is stable under rounding.
  AllreduceAlgorithm best = AllreduceAlgorithm::kTree;
  double best_seconds = PredictAllreduceSeconds(best, options.link, world, bytes);
  for (AllreduceAlgorithm a : {AllreduceAlgorithm::kRecursiveDoubling,
                               AllreduceAlgorithm::kHalvingDoubling, AllreduceAlgorithm::kRing}) {
    if (recursive(a) && !options.recursive_links) continue;
    if (a == AllreduceAlgorithm::kRing && options.ring_min_bytes) continue;
    const double seconds = PredictAllreduceSeconds(a, options.link, world, bytes);
    if (seconds < best_seconds * (1 - 1e-9)) {
      best = a;
      best_seconds = seconds;
    }
  }
  return best;
}

}  // namespace rabit::collective
