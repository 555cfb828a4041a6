// VotingSplitSearch: the histogram sync of tree_learner=voting (histogram_sync.h; PV-Tree, Meng
// et al. 2016; LightGBM's voting-parallel learner). Histograms stay local: each rank keeps its own
// rows' full histogram of every open node (so siblings are local parent - local built, always
// exact). Per batch of nodes:
//   1. each rank finds the best split of every (node, candidate feature) on its local
//      histograms, with min_child_weight / world (a rank holds ~1/world of a node's rows), and
//      proposes its top_k features per node (voting_ballot.h);
//   2. one AllgatherV of the ballots; every rank elects the same 2 * top_k features per node;
//   3. one ReduceScatter sums the elected features' bins of every node of the batch, each
//      feature's on the rank that owns it (feature_owners.h, the cut tree_learner=data uses);
//   4. each rank searches its own elected features' summed bins and one AllgatherV of the
//      winners (SplitEvaluator with feature owners) gives every rank the same split.
// Bytes per batch: the elected features' bins / N per rank, instead of all bins / N (data).
// Trees differ from one process's when a feature that would win globally is elected nowhere;
// with top_k >= a node's candidates every candidate is elected and the tree is the same.
// Sibling subtraction: a node's summed bins are known only for the features summed for it.
// For a feature known at the parent, one child's bins are summed and the sibling's are parent -
// child (exact: integer sums); a feature elected at a child but not known at the parent is
// summed directly for each child that elected it (LightGBM likewise keeps global histograms
// only for the features elected at a node and falls back to reducing the others). A feature's
// owner never changes, so the parent's bins of a feature are on the rank that needs them.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "booster/tree/hist/histogram.h"
#include "booster/tree/sketch/hist_cuts.h"
#include "booster/tree/split/split_evaluator.h"
#include "booster/tree/sync/feature_owners.h"
#include "booster/tree/sync/histogram_sync.h"
#include "booster/tree/sync/voting_ballot.h"
#include "booster/tree_param.h"
#include "rabit/comm.h"

namespace treering::booster {

class VotingSplitSearch final : public HistogramSync {
 public:
  // param, cuts, comm and ctx must outlive this; comm is the world that votes.
  VotingSplitSearch(const TreeParam& param, const HistogramCuts& cuts, rabit::Comm* comm,
                    const Context& ctx);
  ~VotingSplitSearch() override;

  // The root's sum and the nodes' row counts are global; the histograms stay local, and a
  // sibling is this rank's parent - built.
  GradientPairInt SumRoot(GradientPairInt local) override { return GlobalSum(local, *comm_); }
  void SumCounts(std::vector<std::uint64_t>* counts) override;
  void SumLevel(const std::vector<Histogram*>&) override {}
  bool DerivesWhileScanning() const override { return false; }

  // The tree grower split `parent` into `left` and `right` (their evaluation may then derive
  // from the parent's summed bins).
  void Split(int parent, int left, int right) override;

  // The best split of every node; a collective (every rank calls it with the same nodes, each
  // with its own local histograms). ids[i]: the node's id in the tree (0: the root of a new
  // tree), nodes[i].hist: this rank's histogram of the node (all bins), nodes[i].sum: the
  // node's global sum, rows[i]: this rank's rows of the node. `global`: the tree's evaluator
  // (its quantiser; the search itself runs by feature owner).
  std::vector<SplitCandidate> EvaluateNodes(const std::vector<int>& ids,
                                            const std::vector<SplitEvaluator::NodeInput>& nodes,
                                            const std::vector<RowSpan>& rows,
                                            const std::vector<GradientPair>& gpair,
                                            const SplitEvaluator& global) override;

 private:
  // This rank's ballots for every node of the batch (steps 1 and 2's input).
  std::vector<Ballot> LocalBallots(const std::vector<SplitEvaluator::NodeInput>& nodes,
                                   const std::vector<RowSpan>& rows,
                                   const std::vector<GradientPair>& gpair,
                                   const GradientQuantiser& quantiser) const;
  // What is known of an evaluated node: the features whose summed bins were summed or derived
  // for it (the same on every rank), and this rank's own of them with their bins, packed.
  struct Known {
    std::vector<std::uint32_t> features;
    std::vector<std::uint32_t> owned;
    std::vector<std::size_t> offsets;  // where each owned feature's bins start in `bins`
    std::vector<GradientPairInt> bins;
  };
  // Step 3: summed_[i] gets the global sums of this rank's features among node i's elected
  // ones, summed or derived from the parent's; known[i] lists every feature summed or derived
  // for node i (on whichever rank owns it).
  void SumElected(const std::vector<int>& ids, const std::vector<SplitEvaluator::NodeInput>& nodes,
                  const std::vector<std::vector<std::uint32_t>>& elected,
                  std::vector<std::vector<std::uint32_t>>* known);
  void Keep(int id, const std::vector<std::uint32_t>& known, const Histogram& summed);
  const Known* ParentKnown(int node) const;
  bool Mine(std::uint32_t f) const { return owners_.OwnerOfFeature()[f] == owners_.Rank(); }

  const TreeParam& param_;
  TreeParam local_param_;
  const HistogramCuts& cuts_;
  rabit::Comm* comm_;
  const Context& ctx_;
  FeatureOwners owners_;
  std::vector<Histogram> summed_;      // per node of the batch; kept between batches
  std::vector<GradientPairInt> wire_;  // the batch's summed bins, rank-major
  std::map<int, int> parent_of_;       // this tree's split nodes' children -> parent
  std::map<int, Known> known_;         // evaluated nodes whose children are not evaluated yet
};

}  // namespace treering::booster
