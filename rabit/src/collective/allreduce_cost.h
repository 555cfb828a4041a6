// Which Allreduce algorithm a call takes: the one with the lowest predicted time under the
// standard cost model (Thakur, Rabenseifner & Gropp, "Optimization of Collective Communication
// Operations in MPICH", 2005): a message of n bytes between two ranks costs alpha + n * beta,
// reducing n bytes costs n * gamma. Formulas and defaults: docs/collectives.md, "Choosing the
// Allreduce algorithm".
//
// Determinism: the choice depends only on the options (with the ranks' placement, learnt at
// start from one list every rank gathers: rank_placement.h), the world size and the message
// size, so every rank picks the same algorithm, and a job placed the same way picks the same ones
// on every run (the link model is configured, never measured at start: a measured model would
// pick differently on two runs, and tree and ring sum in different orders than the recursive
// algorithms, so models would stop being byte-identical between runs).
#pragma once

#include <cstddef>
#include <optional>

namespace rabit::collective {

enum class AllreduceAlgorithm { kTree, kRing, kRecursiveDoubling, kHalvingDoubling };

const char* AllreduceAlgorithmName(AllreduceAlgorithm algorithm);

struct LinkModel {
  double latency_seconds = 20e-6;        // alpha: rabit_link_latency_us
  double bytes_per_second = 2.5e9;       // 1 / beta: rabit_link_bandwidth_mbps
  double reduce_bytes_per_second = 4e9;  // 1 / gamma: one core's reduction loop (not a key)
  // Ranks placed beyond the cores of the most loaded machine (rank_placement.h; learnt at start,
  // 0 unless oversubscribed). Every step of the recursive algorithms and of the ring needs its
  // partners running at once, so each such rank adds one wait for a core to each step; the
  // tree pipelines its hops, which the idle ranks' cores absorb (docs/collectives.md).
  int ranks_beyond_cores = 0;
  double core_wait_seconds = 30e-6;  // one rank's wait for a core (measured, not a key)
};

struct AllreduceChoiceOptions {
  LinkModel link;
  // The recursive algorithms need links to RecursivePartners; a Communicator whose links lack
  // them (in-process tests over other link sets) leaves this false and gets tree or ring.
  bool recursive_links = false;
  // rabit_allreduce: one algorithm for every call (a recursive one falls back to the model's
  // choice between tree and ring when recursive_links is false).
  std::optional<AllreduceAlgorithm> forced;
  // rabit_reduce_ring_mincount when given: the ring from this size, never below it.
  std::optional<std::size_t> ring_min_bytes;
};

// Predicted seconds of one Allreduce of `bytes` over `world` ranks.
double PredictAllreduceSeconds(AllreduceAlgorithm algorithm, const LinkModel& link, int world,
                               std::size_t bytes);

// Same inputs, same answer on every rank.
AllreduceAlgorithm ChooseAllreduce(const AllreduceChoiceOptions& options, int world,
                                   std::size_t bytes);

}  // namespace rabit::collective
