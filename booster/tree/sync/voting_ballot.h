// The vote of tree_learner=voting (PV-Tree, Meng et al. 2016; LightGBM's voting-parallel
// learner): per node, each rank proposes the top_k features by the split gain of its own rows'
// histograms; the features with the most proposals over all ranks are elected and only their
// histograms are summed. Every rank elects from the same allgathered ballots with the same
// rule, so every rank elects the same features: the election needs no further agreement.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "booster/tree/split/split_evaluator.h"

namespace treering::booster {

// One proposal, as exchanged between ranks (12 bytes, fixed layout).
struct Ballot {
  std::uint32_t node = 0;     // index of the node in the evaluated batch
  std::uint32_t feature = 0;  // global feature index
  float gain = 0.0f;          // the proposer's local loss_chg (orders ties of the count)
};

// A rank's proposals for one node: of `candidates` (the best split of each candidate feature
// on local histograms), the top_k by loss_chg, ties to the smaller feature. Features without
// any local split are proposed too when fewer than top_k have one, so with top_k >= the
// number of candidates every candidate is proposed.
std::vector<Ballot> ProposeFeatures(std::uint32_t node,
                                    const std::vector<SplitCandidate>& candidates,
                                    std::size_t top_k);

// The elected features of one node, ascending: of the features named by `ballots` that are in
// `allowed` (ascending; a ballot naming another feature counts for nothing), the `seats` with
// the most ballots; ties to the larger sum of proposers' gains (summed in ballot order, which
// is rank order on every rank), then to the smaller feature index.
std::vector<std::uint32_t> ElectFeatures(const std::vector<Ballot>& ballots,
                                         const std::vector<std::uint32_t>& allowed,
                                         std::size_t seats);

}  // namespace treering::booster
