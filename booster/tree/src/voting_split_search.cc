#include "voting_split_search.h"

#include <algorithm>
#include <iostream>
#include <iterator>

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

void VotingSplitSearch::Split(int parent, int left, int right) {
  parent_of_[left] = parent;
  parent_of_[right] = parent;
}

const GradientPairInt* VotingSplitSearch::ParentBins(int node, std::uint32_t f) const {
  const auto parent = parent_of_.find(node);
  if (parent == parent_of_.end()) return nullptr;
  const auto it = known_.find(parent->second);
  if (it == known_.end()) return nullptr;
  const Known& known = it->second;
  const auto at = std::lower_bound(known.features.begin(), known.features.end(), f);
  if (at == known.features.end() || *at != f) return nullptr;
  return known.bins.data() + known.offsets[static_cast<std::size_t>(at - known.features.begin())];
}

namespace {

bool Contains(const std::vector<std::uint32_t>& sorted, std::uint32_t f) {
  return std::binary_search(sorted.begin(), sorted.end(), f);
}

}  // namespace

void VotingSplitSearch::SumElected(const std::vector<int>& ids,
                                   const std::vector<SplitEvaluator::NodeInput>& nodes,
                                   const std::vector<std::vector<std::uint32_t>>& elected,
                                   std::vector<std::vector<std::uint32_t>>* known) {
  const std::size_t n = nodes.size();
  // Siblings of the batch: the first node of each parent meets the second.
  std::vector<std::size_t> sibling(n, n);
  std::vector<std::uint8_t> second(n, 0);
  std::map<int, std::size_t> first_child;
  for (std::size_t i = 0; i < n; ++i) {
    const auto parent = parent_of_.find(ids[i]);
    if (parent == parent_of_.end()) continue;
    const auto [it, fresh] = first_child.emplace(parent->second, i);
    if (!fresh) {
      sibling[it->second] = i;
      second[i] = 1;
    }
  }
  // The plan: per node the features summed over ranks; siblings' bins derived from parents.
  struct Derivation {
    std::size_t node, from;  // summed_[node] = parent - summed_[from] on feature f's bins
    std::uint32_t feature;
    const GradientPairInt* parent;
  };
  std::vector<std::vector<std::uint32_t>> sum(n);
  std::vector<Derivation> derive;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = sibling[i];
    if (second[i]) continue;  // planned with its sibling
    if (j == n) {
      sum[i] = elected[i];  // no sibling in the batch (the root)
      continue;
    }
    std::vector<std::uint32_t> either;
    std::set_union(elected[i].begin(), elected[i].end(), elected[j].begin(), elected[j].end(),
                   std::back_inserter(either));
    for (std::uint32_t f : either) {
      const GradientPairInt* parent = ParentBins(ids[i], f);
      const bool in_j = Contains(elected[j], f);
      if (parent != nullptr) {  // one sum serves both children
        sum[i].push_back(f);
        if (in_j) derive.push_back({j, i, f, parent});
        continue;
      }
      if (Contains(elected[i], f)) sum[i].push_back(f);
      if (in_j) sum[j].push_back(f);
    }
  }
  wire_.clear();
  for (std::size_t i = 0; i < n; ++i) {
    for (std::uint32_t f : sum[i]) {
      wire_.insert(wire_.end(), nodes[i].hist->begin() + cuts_.ptrs[f],
                   nodes[i].hist->begin() + cuts_.ptrs[f + 1]);
    }
  }
  static_assert(sizeof(GradientPairInt) == 2 * sizeof(std::int64_t));
  comm_->Allreduce<rabit::op::Sum>(reinterpret_cast<std::int64_t*>(wire_.data()), wire_.size() * 2);
  if (summed_.size() < n) summed_.resize(n);
  std::size_t pos = 0;
  for (std::size_t i = 0; i < n; ++i) {
    summed_[i].resize(cuts_.TotalBins());  // only the summed and derived features' bins are set
    for (std::uint32_t f : sum[i]) {
      const std::uint32_t bins = cuts_.ptrs[f + 1] - cuts_.ptrs[f];
      std::copy_n(wire_.begin() + pos, bins, summed_[i].begin() + cuts_.ptrs[f]);
      pos += bins;
    }
  }
  known->assign(sum.begin(), sum.end());
  for (const Derivation& d : derive) {
    const std::uint32_t first = cuts_.ptrs[d.feature], bins = cuts_.ptrs[d.feature + 1] - first;
    for (std::uint32_t b = 0; b < bins; ++b) {
      summed_[d.node][first + b] = d.parent[b] - summed_[d.from][first + b];
    }
    (*known)[d.node].push_back(d.feature);
  }
  for (std::vector<std::uint32_t>& k : *known) std::sort(k.begin(), k.end());
}

std::vector<SplitCandidate> VotingSplitSearch::EvaluateNodes(
    const std::vector<int>& ids, const std::vector<SplitEvaluator::NodeInput>& nodes,
    const std::vector<RowSpan>& rows, const std::vector<GradientPair>& gpair,
    const SplitEvaluator& global) {
  if (nodes.empty()) return {};  // the same batch on every rank: all skip the collectives
  if (std::find(ids.begin(), ids.end(), 0) != ids.end()) {  // a new tree
    parent_of_.clear();
    known_.clear();
  }
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
  std::vector<std::vector<std::uint32_t>> known;
  SumElected(ids, nodes, elected, &known);
  // The parents' bins have served; this batch's are kept for its children.
  for (int id : ids) {
    const auto parent = parent_of_.find(id);
    if (parent != parent_of_.end()) known_.erase(parent->second);
  }
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    Known& keep = known_[ids[n]];
    keep.features = known[n];
    keep.offsets.clear();
    keep.bins.clear();
    for (std::uint32_t f : known[n]) {
      keep.offsets.push_back(keep.bins.size());
      keep.bins.insert(keep.bins.end(), summed_[n].begin() + cuts_.ptrs[f],
                       summed_[n].begin() + cuts_.ptrs[f + 1]);
    }
  }
  std::vector<SplitEvaluator::NodeInput> inputs;
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    inputs.push_back({&summed_[n], nodes[n].sum, std::move(elected[n]), nodes[n].bounds});
  }
  return global.EvaluateNodes(inputs, nthread_);
}

}  // namespace treering::booster
