// HistogramSync: how the ranks' gradient histograms become the histograms a node's split is
// searched on, chosen once when the learner starts (MakeHistogramSync), as LightGBM picks its
// serial, data-parallel or voting-parallel tree learner. The tree grower, the histogram
// builder and the split evaluator never ask whether they are distributed: the grower builds
// each level's local histograms and hands them, and every evaluation, to this strategy.
//
//   one process    LocalSync        nothing to sum; siblings derived while scanning
//   allreduce      AllreduceSync    every rank gets every sum (one allreduce per level); the
//                                   (node, feature) scans are dealt round-robin, one
//                                   AllgatherV combines the winners
//   data           FeatureOwnerSync each rank gets the sums of its own features' bins (one
//                                   reduce-scatter per level) and scans only those
//   voting         VotingSplitSearch histograms stay local; only the features the ranks vote
//                                   for are summed (voting_split_search.h)
//
// Every strategy gives the same trees on every rank; all but voting give one process's trees
// bit for bit (integer sums, order-independent split preference).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "base/context.h"
#include "booster/tree/hist/gradient_quantiser.h"
#include "booster/tree/hist/histogram.h"
#include "booster/tree/sketch/hist_cuts.h"
#include "booster/tree/split/split_evaluator.h"
#include "booster/tree_param.h"
#include "rabit/comm.h"

namespace treering::booster {

class HistogramSync {
 public:
  virtual ~HistogramSync() = default;

  // The sum over the ranks of each rank's gradient sum of a tree's root.
  virtual GradientPairInt SumRoot(GradientPairInt local) = 0;
  // Per node, a count summed over the ranks (the nodes' rows, for min_data_in_leaf).
  virtual void SumCounts(std::vector<std::uint64_t>* counts) = 0;
  // A level's histograms, just built from this rank's rows: afterwards they hold what this
  // strategy's evaluation reads (all sums, this rank's features' sums, or still local).
  virtual void SumLevel(const std::vector<Histogram*>& built) = 0;
  // True: the sibling of a built node is derived (parent - built) inside the next evaluation,
  // slice by slice as each feature is scanned (SplitEvaluator::NodeInput::derive). False: the
  // grower subtracts whole histograms before the evaluation.
  virtual bool DerivesWhileScanning() const = 0;
  // The tree grower split `parent` into `left` and `right`.
  virtual void Split(int /*parent*/, int /*left*/, int /*right*/) {}

  // The best split of every node of a batch; a collective: every rank calls it with the same
  // node ids, each with its own histograms as SumLevel left them. ids[i]: the node's id in the
  // tree (0: the root of a new tree); rows[i]: this rank's rows of node i; gpair: this rank's
  // gradients; evaluator: the tree's gain formulas and quantiser.
  virtual std::vector<SplitCandidate> EvaluateNodes(
      const std::vector<int>& ids, const std::vector<SplitEvaluator::NodeInput>& nodes,
      const std::vector<RowSpan>& rows, const std::vector<GradientPair>& gpair,
      const SplitEvaluator& evaluator) = 0;
};

// The strategy for this world and tree_learner: one process (LocalSync) whatever
// tree_learner says; voting; data unless a feature is categorical (a categorical split reads
// the whole histogram of its feature on every rank); allreduce otherwise. param, cuts, comm and
// ctx must outlive it.
std::unique_ptr<HistogramSync> MakeHistogramSync(const TreeParam& param, const HistogramCuts& cuts,
                                                 rabit::Comm* comm, const Context& ctx);

// Each rank's best split per node combined into the best over all ranks (one AllgatherV of
// the per-node winners). NeedReplace is an order-independent preference (higher gain, then
// the lower feature), so the result is what one process scanning every pair finds.
std::vector<SplitCandidate> BestOverRanks(const std::vector<SplitCandidate>& mine,
                                          rabit::Comm& comm);

}  // namespace treering::booster
