// The strategy chosen once per learner, and the two strategies without a file of their own.
#include "booster/tree/sync/histogram_sync.h"

#include <algorithm>

#include "booster/tree/sync/exact_syncs.h"
#include "booster/tree/sync/voting_split_search.h"

namespace treering::booster {

std::unique_ptr<HistogramSync> MakeHistogramSync(const TreeParam& param, const HistogramCuts& cuts,
                                                 rabit::Comm* comm, const Context& ctx) {
  if (!comm->IsDistributed()) return std::make_unique<LocalSync>(ctx);
  switch (param.tree_learner) {
    case TreeLearner::kVoting:
      return std::make_unique<VotingSplitSearch>(param, cuts, comm, ctx);
    case TreeLearner::kData:
      if (!param.HasCategorical()) return std::make_unique<FeatureOwnerSync>(cuts, comm, ctx);
      break;
    case TreeLearner::kAllreduce:
      break;
  }
  return std::make_unique<AllreduceSync>(comm, cuts.TotalBins(), ctx);
}

std::vector<SplitCandidate> BestOverRanks(const std::vector<SplitCandidate>& mine,
                                          rabit::Comm& comm) {
  const std::vector<SplitCandidate> all = comm.AllgatherV(mine);  // rank-major
  std::vector<SplitCandidate> best(mine.size());
  for (std::size_t i = 0; i < all.size(); ++i) best[i % mine.size()].Update(all[i]);
  return best;
}

std::vector<SplitCandidate> LocalSync::EvaluateNodes(
    const std::vector<int>&, const std::vector<SplitEvaluator::NodeInput>& nodes,
    const std::vector<RowSpan>&, const std::vector<GradientPair>&,
    const SplitEvaluator& evaluator) {
  return evaluator.EvaluateNodes(nodes, ctx_.Threads());
}

void AllreduceSync::SumCounts(std::vector<std::uint64_t>* counts) {
  comm_->Allreduce<rabit::op::Sum>(counts->data(), counts->size());
}

void AllreduceSync::SumLevel(const std::vector<Histogram*>& built) {
  if (built.empty()) return;
  std::vector<GradientPairInt>& level = level_buffer_;
  level.resize(built.size() * std::size_t(total_bins_));
  for (std::size_t i = 0; i < built.size(); ++i) {
    std::copy(built[i]->begin(), built[i]->end(), level.begin() + i * total_bins_);
  }
  static_assert(sizeof(GradientPairInt) == 2 * sizeof(std::int64_t));
  const rabit::PhaseScope phase(*comm_, "histogram sync");
  comm_->Allreduce<rabit::op::Sum>(reinterpret_cast<std::int64_t*>(level.data()), level.size() * 2);
  for (std::size_t i = 0; i < built.size(); ++i) {
    std::copy_n(level.begin() + i * total_bins_, total_bins_, built[i]->begin());
  }
}

std::vector<SplitCandidate> AllreduceSync::EvaluateNodes(
    const std::vector<int>&, const std::vector<SplitEvaluator::NodeInput>& nodes,
    const std::vector<RowSpan>&, const std::vector<GradientPair>&,
    const SplitEvaluator& evaluator) {
  return BestOverRanks(evaluator.EvaluateNodes(nodes, ctx_.Threads(), Share()), *comm_);
}

}  // namespace treering::booster
