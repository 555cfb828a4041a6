#include "booster/tree/sync/voting_split_search.h"

#include <algorithm>
#include <iterator>

namespace treering::booster {
VotingSplitSearch::VotingSplitSearch(const TreeParam& param, const HistogramCuts& cuts,
                                     rabit::Comm* comm, const Context& ctx)
    : param_(param),
      local_param_(param),
      cuts_(cuts),
      comm_(comm),
      ctx_(ctx),
      owners_(cuts.ptrs, comm->WorldSize(), comm->Rank()) {
  // A rank sees ~1/world of a node's rows: a child it finds too light may be heavy enough
  // globally (LightGBM divides its leaf minima by the number of machines the same way).
  local_param_.min_child_weight /= static_cast<float>(std::max(1, comm->WorldSize()));
}

VotingSplitSearch::~VotingSplitSearch() = default;

void VotingSplitSearch::SumCounts(std::vector<std::uint64_t>* counts) {
  comm_->Allreduce<rabit::op::Sum>(counts->data(), counts->size());
}

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
  const SplitEvaluator local(local_param_, cuts_, quantiser);
  std::vector<SplitCandidate> best = local.EvaluateNodes(inputs, ctx_.Threads());  // every pair
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

const VotingSplitSearch::Known* VotingSplitSearch::ParentKnown(int node) const {
  const auto parent = parent_of_.find(node);
  if (parent == parent_of_.end()) return nullptr;
  const auto it = known_.find(parent->second);
  return it == known_.end() ? nullptr : &it->second;
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
  // The plan, the same on every rank: per node the features summed over ranks, and the
  // siblings' features derived as parent - summed sibling.
  struct Derivation {
    std::size_t node, from;  // summed_[node] = parent - summed_[from] on the feature's bins
    std::uint32_t feature;
  };
  std::vector<std::vector<std::uint32_t>> sum(n);
  std::vector<Derivation> derive;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = sibling[i];
    if (second[i]) continue;  // planned with its sibling
    const Known* parent = ParentKnown(ids[i]);
    if (j == n || parent == nullptr) {
      sum[i] = elected[i];  // no sibling in the batch (the root), or nothing known above
      continue;
    }
    std::vector<std::uint32_t> either;
    std::set_union(elected[i].begin(), elected[i].end(), elected[j].begin(), elected[j].end(),
                   std::back_inserter(either));
    for (std::uint32_t f : either) {
      const bool in_j = Contains(elected[j], f);
      if (Contains(parent->features, f)) {  // one sum serves both children
        sum[i].push_back(f);
        if (in_j) derive.push_back({j, i, f});
        continue;
      }
      if (Contains(elected[i], f)) sum[i].push_back(f);
      if (in_j) sum[j].push_back(f);
    }
  }
  // Rank-major: rank r's block holds its features' bins of every node, so the reduce-scatter
  // leaves each rank the sums of exactly its own features.
  const int world = owners_.World();
  std::vector<std::size_t> counts(static_cast<std::size_t>(world), 0);
  wire_.clear();
  std::size_t mine = 0;
  for (int r = 0; r < world; ++r) {
    if (r == owners_.Rank()) mine = wire_.size();
    for (std::size_t i = 0; i < n; ++i) {
      for (std::uint32_t f : sum[i]) {
        if (owners_.OwnerOfFeature()[f] != r) continue;
        wire_.insert(wire_.end(), nodes[i].hist->begin() + cuts_.ptrs[f],
                     nodes[i].hist->begin() + cuts_.ptrs[f + 1]);
        counts[r] += 2 * std::size_t(cuts_.FeatureBins(f));  // int64 halves of each pair
      }
    }
  }
  static_assert(sizeof(GradientPairInt) == 2 * sizeof(std::int64_t));
  comm_->ReduceScatter<rabit::op::Sum>(reinterpret_cast<std::int64_t*>(wire_.data()), counts);
  if (summed_.size() < n) summed_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    summed_[i].resize(cuts_.TotalBins());  // only this rank's summed and derived bins are set
    for (std::uint32_t f : sum[i]) {
      if (!Mine(f)) continue;
      std::copy_n(wire_.begin() + mine, cuts_.FeatureBins(f), summed_[i].begin() + cuts_.ptrs[f]);
      mine += cuts_.FeatureBins(f);
    }
  }
  known->assign(sum.begin(), sum.end());
  for (const Derivation& d : derive) {
    (*known)[d.node].push_back(d.feature);
    if (!Mine(d.feature)) continue;
    const Known& parent = *ParentKnown(ids[d.node]);
    const auto at = std::lower_bound(parent.owned.begin(), parent.owned.end(), d.feature);
    const GradientPairInt* above = parent.bins.data() + parent.offsets[at - parent.owned.begin()];
    const std::uint32_t first = cuts_.ptrs[d.feature];
    for (std::uint32_t b = 0; b < cuts_.FeatureBins(d.feature); ++b) {
      summed_[d.node][first + b] = above[b] - summed_[d.from][first + b];
    }
  }
  for (std::vector<std::uint32_t>& k : *known) std::sort(k.begin(), k.end());
}

void VotingSplitSearch::Keep(int id, const std::vector<std::uint32_t>& known,
                             const Histogram& summed) {
  Known& keep = known_[id];
  keep.features = known;
  keep.owned.clear();
  keep.offsets.clear();
  keep.bins.clear();
  for (std::uint32_t f : known) {
    if (!Mine(f)) continue;
    keep.owned.push_back(f);
    keep.offsets.push_back(keep.bins.size());
    keep.bins.insert(keep.bins.end(), summed.begin() + cuts_.ptrs[f],
                     summed.begin() + cuts_.ptrs[f + 1]);
  }
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
  for (std::size_t n = 0; n < nodes.size(); ++n) Keep(ids[n], known[n], summed_[n]);
  std::vector<SplitEvaluator::NodeInput> inputs;
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    inputs.push_back(nodes[n]);  // the node's global sum, bounds and rows (min_data_in_leaf)
    inputs.back().hist = &summed_[n];
    inputs.back().features = std::move(elected[n]);
  }
  // Each rank searches the elected features it owns (the only summed bins it holds).
  const SplitEvaluator summed(param_, cuts_, global.Quantiser());
  const ScanShare by_owner{owners_.World(), owners_.Rank(), &owners_.OwnerOfFeature()};
  return BestOverRanks(summed.EvaluateNodes(inputs, ctx_.Threads(), by_owner), *comm_);
}

}  // namespace treering::booster
