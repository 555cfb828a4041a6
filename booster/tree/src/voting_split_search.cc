#include "voting_split_search.h"

#include <algorithm>
#include <iostream>

namespace treering::booster {
namespace {

// A world of one: every collective is the identity. The histogram builder sums over it, which
// leaves each rank's histograms its own.
class WorldOfOne final : public rabit::Comm {
 public:
  int Rank() const override { return 0; }
  int WorldSize() const override { return 1; }
  void TrackerPrint(const std::string& msg) override { std::cout << msg << std::flush; }
  void AllreduceBytes(void*, std::size_t, rabit::DataType, rabit::OpKind,
                      const rabit::PrepareFn& prepare) override {
    if (prepare) prepare();
  }
  void BroadcastBytes(void*, std::size_t, int) override {}
  void AllgatherBytes(void*, const std::vector<std::size_t>&) override {}
};

}  // namespace

VotingSplitSearch::VotingSplitSearch(const TreeParam& param, const HistogramCuts& cuts,
                                     rabit::Comm* comm, int nthread)
    : local_param_(param),
      cuts_(cuts),
      comm_(comm),
      nthread_(nthread),
      local_comm_(std::make_unique<WorldOfOne>()) {
  // A rank sees ~1/world of a node's rows: a child it finds too light may be heavy enough
  // globally (LightGBM divides its leaf minima by the number of machines the same way).
  local_param_.min_child_weight /= static_cast<float>(std::max(1, comm->WorldSize()));
}

VotingSplitSearch::~VotingSplitSearch() = default;

std::vector<Ballot> VotingSplitSearch::LocalBallots(
    const std::vector<SplitEvaluator::NodeInput>& nodes, const std::vector<RowSpan>& rows,
    const std::vector<GradientPair>& gpair, const GradientQuantiser& quantiser) const {
  // One input per (node, feature): the evaluator's best per input is then the feature's best.
  std::vector<SplitEvaluator::NodeInput> inputs;
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    GradientPairInt local_sum;  // the node's sum over this rank's rows (the histogram's total)
    for (const std::uint32_t* r = rows[n].begin; r != rows[n].end; ++r) {
      local_sum += quantiser.Quantise(gpair[*r]);
    }
    for (std::uint32_t f : nodes[n].features) {
      inputs.push_back({nodes[n].hist, local_sum, {f}, nodes[n].bounds});
    }
  }
  const SplitEvaluator local(local_param_, cuts_, quantiser, local_comm_.get());
  std::vector<SplitCandidate> best = local.EvaluateNodes(inputs, nthread_);
  std::vector<Ballot> ballots;
  std::size_t k = 0;
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    std::vector<SplitCandidate> per_feature(best.begin() + k,
                                            best.begin() + k + nodes[n].features.size());
    for (std::size_t i = 0; i < per_feature.size(); ++i) {
      per_feature[i].feature = nodes[n].features[i];  // also where no split was found
    }
    k += per_feature.size();
    const std::vector<Ballot> mine = ProposeFeatures(static_cast<std::uint32_t>(n), per_feature,
                                                     static_cast<std::size_t>(local_param_.top_k));
    ballots.insert(ballots.end(), mine.begin(), mine.end());
  }
  return ballots;
}

void VotingSplitSearch::SumElected(const std::vector<SplitEvaluator::NodeInput>& nodes,
                                   const std::vector<std::vector<std::uint32_t>>& elected) {
  wire_.clear();
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    for (std::uint32_t f : elected[n]) {
      wire_.insert(wire_.end(), nodes[n].hist->begin() + cuts_.ptrs[f],
                   nodes[n].hist->begin() + cuts_.ptrs[f + 1]);
    }
  }
  static_assert(sizeof(GradientPairInt) == 2 * sizeof(std::int64_t));
  comm_->Allreduce<rabit::op::Sum>(reinterpret_cast<std::int64_t*>(wire_.data()), wire_.size() * 2);
  if (summed_.size() < nodes.size()) summed_.resize(nodes.size());
  std::size_t pos = 0;
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    summed_[n].resize(cuts_.TotalBins());  // only the elected features' bins are written
    for (std::uint32_t f : elected[n]) {
      const std::uint32_t bins = cuts_.ptrs[f + 1] - cuts_.ptrs[f];
      std::copy_n(wire_.begin() + pos, bins, summed_[n].begin() + cuts_.ptrs[f]);
      pos += bins;
    }
  }
}

std::vector<SplitCandidate> VotingSplitSearch::EvaluateNodes(
    const std::vector<SplitEvaluator::NodeInput>& nodes, const std::vector<RowSpan>& rows,
    const std::vector<GradientPair>& gpair, const SplitEvaluator& global) {
  const std::vector<Ballot> all =
      comm_->AllgatherV(LocalBallots(nodes, rows, gpair, global.Quantiser()));
  std::vector<std::vector<Ballot>> by_node(nodes.size());
  for (const Ballot& b : all) {
    if (b.node < nodes.size()) by_node[b.node].push_back(b);  // rank order within a node
  }
  std::vector<std::vector<std::uint32_t>> elected(nodes.size());
  const std::size_t seats = 2 * static_cast<std::size_t>(local_param_.top_k);
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    elected[n] = ElectFeatures(by_node[n], nodes[n].features, seats);
  }
  SumElected(nodes, elected);
  std::vector<SplitEvaluator::NodeInput> inputs;
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    inputs.push_back({&summed_[n], nodes[n].sum, std::move(elected[n]), nodes[n].bounds});
  }
  return global.EvaluateNodes(inputs, nthread_);
}

}  // namespace treering::booster
