#include "booster/tree/grow/tree_grower.h"

#include <algorithm>

#include "base/parallel_for.h"
#include "booster/tree/grow/expand_queue.h"
#include "booster/tree/split/interaction_constraints.h"
#include "booster/tree/sync/histogram_sync.h"
#include "booster/work_split.h"

namespace treering::booster {
namespace {

constexpr float kRtEps = 1e-6f;

// XGBoost's CPUExpandEntry::ChildIsValid: may the children of a split be split again?
bool ChildIsValid(const TreeParam& param, int depth, int num_leaves) {
  if (param.max_depth > 0 && depth >= param.max_depth) return false;
  if (param.max_leaves > 0 && num_leaves >= param.max_leaves) return false;
  return true;
}

}  // namespace

bool ExpandEntry::IsValid(const TreeParam& param, int num_leaves) const {
  if (split.loss_chg <= kRtEps) return false;
  if (split.left_sum.hess == 0 || split.right_sum.hess == 0) return false;
  if (split.loss_chg < param.min_split_loss) return false;
  if (param.max_depth > 0 && depth == param.max_depth) return false;
  if (param.max_leaves > 0 && num_leaves == param.max_leaves) return false;
  return true;
}

TreeGrower::TreeGrower(const TreeParam& param, const HistogramCuts& cuts,
                       const BinnedMatrix& matrix, ColumnSampler* sampler, const Context& ctx,
                       HistogramSync* sync)
    : param_(param),
      cuts_(cuts),
      matrix_(matrix),
      sampler_(sampler),
      ctx_(ctx),
      sync_(sync),
      builder_(&matrix, cuts.TotalBins(), ctx) {}

// Everything one Grow call knows of its tree. It lives for that call only, so nothing of a
// tree, nor of a tree that ended in an exception (a collective's failure, bad_alloc), reaches
// the next; its histogram buffers go back to the grower's spares when it ends.
struct TreeGrower::GrowingTree {
  GrowingTree(std::vector<Histogram>* spares, const std::vector<GradientPair>& gpair,
              const SplitEvaluator& evaluator)
      : spares(spares), gpair(gpair), evaluator(evaluator) {}
  ~GrowingTree() {
    while (!hists.empty()) Release(hists.begin()->first);
  }
  GrowingTree(const GrowingTree&) = delete;
  GrowingTree& operator=(const GrowingTree&) = delete;

  // The node's histogram, in a recycled buffer when there is one.
  Histogram& HistOf(int node) {
    auto it = hists.find(node);
    if (it != hists.end()) return it->second;
    Histogram hist;
    if (!spares->empty()) {
      hist.swap(spares->back());
      spares->pop_back();
    }
    return hists.emplace(node, std::move(hist)).first->second;
  }
  void Release(int node) {
    auto it = hists.find(node);
    if (it == hists.end()) return;
    spares->push_back(std::move(it->second));
    hists.erase(it);
  }

  std::vector<Histogram>* spares;
  const std::vector<GradientPair>& gpair;
  const SplitEvaluator& evaluator;
  RegTree tree;
  std::map<int, Histogram> hists;       // nodes whose histogram is still needed
  std::map<int, GradientPairInt> sums;  // gradient sum of every node
  std::map<int, WeightBounds> bounds;   // monotone constraints' weight bounds of every node
  // interaction_constraints: features split on along each node's path (ascending).
  std::map<int, std::vector<std::uint32_t>> path_features;
  std::vector<std::int32_t> split_bins;  // per split node (PlaceLeftOutRows)
  // Siblings whose histogram the next evaluation derives (parent - built), where the sync
  // strategy derives while scanning.
  struct Derivation {
    int parent, built;
  };
  std::map<int, Derivation> derive_from;
};

std::vector<ExpandEntry> TreeGrower::Evaluate(GrowingTree& t, const std::vector<int>& nodes,
                                              int depth) {
  std::vector<SplitEvaluator::NodeInput> inputs;
  const InteractionConstraints interactions(param_.interaction_constraints);
  for (int node : nodes) {
    // Sampled first, then filtered, as XGBoost: the sampler's draws do not depend on it.
    std::vector<std::uint32_t> features =
        interactions.Allowed(t.path_features[node], sampler_->NodeFeatures(depth));
    inputs.push_back({&t.hists[node], t.sums[node], std::move(features), t.bounds[node]});
    const auto from = t.derive_from.find(node);
    if (from == t.derive_from.end()) continue;
    inputs.back().derive = &t.hists[node];
    inputs.back().parent = &t.hists.at(from->second.parent);
    inputs.back().built = &t.hists.at(from->second.built);
  }
  if (param_.min_data_in_leaf > 0) SetNodeRows(nodes, &inputs);
  std::vector<RowSpan> rows;
  for (int node : nodes) rows.push_back(partition_.Rows(node));
  const std::vector<SplitCandidate> best =
      sync_->EvaluateNodes(nodes, inputs, rows, t.gpair, t.evaluator);
  t.derive_from.clear();
  std::vector<ExpandEntry> entries(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) entries[i] = {nodes[i], depth, best[i]};
  return entries;
}

// min_data_in_leaf compares with the node's rows on all ranks: one small sum per step.
void TreeGrower::SetNodeRows(const std::vector<int>& nodes,
                             std::vector<SplitEvaluator::NodeInput>* inputs) const {
  std::vector<std::uint64_t> rows(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) rows[i] = partition_.NumRows(nodes[i]);
  sync_->SumCounts(&rows);
  for (std::size_t i = 0; i < nodes.size(); ++i) (*inputs)[i].rows = rows[i];
}

void TreeGrower::ApplySplit(GrowingTree& t, const ExpandEntry& e) {
  const SplitCandidate& s = e.split;
  const SplitEvaluator& evaluator = t.evaluator;
  RegTree* tree = &t.tree;
  const WeightBounds bounds = t.bounds[e.node];
  const float wl = evaluator.Weight(s.left_sum, bounds);
  const float wr = evaluator.Weight(s.right_sum, bounds);
  const int left = tree->AddNode(e.node, wl * param_.eta, wl * param_.eta,
                                 static_cast<float>(evaluator.H(s.left_sum)));
  const int right = tree->AddNode(e.node, wr * param_.eta, wr * param_.eta,
                                  static_cast<float>(evaluator.H(s.right_sum)));
  const GradientPairInt parent_sum = t.sums.at(e.node);
  tree->left[e.node] = left;
  tree->right[e.node] = right;
  sync_->Split(e.node, left, right);
  tree->split_index[e.node] = s.feature;
  if (t.split_bins.size() <= static_cast<std::size_t>(e.node)) t.split_bins.resize(e.node + 1);
  t.split_bins[e.node] = s.split_bin;
  tree->split_cond[e.node] = s.split_value;
  if (s.cat_kind != SplitCandidate::kNone) {  // NaN condition, as XGBoost's ExpandCategorical
    tree->categories[e.node] = evaluator.CategorySet(t.hists.at(e.node), s);
  }
  tree->default_left[e.node] = s.default_left ? 1 : 0;
  tree->base_weight[e.node] = evaluator.Weight(parent_sum, bounds);
  evaluator.ChildBounds(bounds, s.feature, wl, wr, &t.bounds[left], &t.bounds[right]);
  if (!param_.interaction_constraints.empty()) {
    std::vector<std::uint32_t> path = t.path_features[e.node];
    const auto at = std::lower_bound(path.begin(), path.end(), s.feature);
    if (at == path.end() || *at != s.feature) path.insert(at, s.feature);
    t.path_features[left] = path;
    t.path_features[right] = std::move(path);
  }
  tree->loss_change[e.node] = s.loss_chg;
  tree->sum_hess[e.node] = static_cast<float>(evaluator.H(parent_sum));
  t.sums[left] = s.left_sum;
  t.sums[right] = s.right_sum;
}

// Sparse data: a row's value of the split feature would need a search in the row, so each
// split's column is walked instead; rows absent from it are missing (default direction).
std::vector<std::vector<std::uint8_t>> TreeGrower::BinTables(const Batch& applied,
                                                             const RegTree& tree) const {
  bool any = false;
  for (const ExpandEntry& e : applied) any = any || tree.IsCategorical(e.node);
  if (!any) return {};
  std::vector<std::vector<std::uint8_t>> tables(applied.size());
  for (std::size_t k = 0; k < applied.size(); ++k) {
    tables[k] = BinTable(tree, applied[k].node, applied[k].split.split_bin);
  }
  return tables;
}

std::vector<std::uint8_t> TreeGrower::BinTable(const RegTree& tree, int node, int split_bin) const {
  std::vector<std::uint8_t> table(cuts_.FeatureBins(tree.split_index[node]), 0);
  if (tree.IsCategorical(node)) {
    std::fill(table.begin(), table.end(), 1);  // a category outside the set goes left
    for (const std::int32_t c : tree.categories.at(node)) table[c] = 0;
  } else {
    for (int b = 0; b <= split_bin; ++b) table[b] = 1;
  }
  return table;
}

RowSpan TreeGrower::HistogramRows(const std::vector<GradientPair>& gpair, int node) const {
  if (!sampled_ || kept_only_) return partition_.Rows(node);
  return partition_.KeptPrefix(node, InSample{gpair.data()});
}

// DecideByColumns: column_decisions.cc.

void TreeGrower::PartitionRows(const Batch& applied, const RegTree& tree) {
  std::vector<RowPartition::SplitTask> tasks;
  for (const ExpandEntry& e : applied) {
    tasks.push_back({e.node, tree.left[e.node], tree.right[e.node]});
  }
  const std::vector<std::vector<std::uint8_t>> tables = BinTables(applied, tree);
  if (matrix_.layout() == BinnedMatrix::Layout::kSparse && BuildBinColumns()) {
    PartitionByBinColumns(tasks, applied, tables);
    return;
  }
  if (matrix_.layout() == BinnedMatrix::Layout::kSparse) {
    DecideByColumns(applied, tables);
    const std::uint8_t* goes_left = goes_left_.data();
    partition_.Split(
        tasks,
        [goes_left](std::size_t) {
          return [goes_left](std::uint32_t row) { return goes_left[row] != 0; };
        },
        ctx_.Threads());
    return;
  }
  if (!tables.empty()) {  // a categorical split: decide by table (dense rows have no missing)
    partition_.Split(
        tasks,
        [&](std::size_t k) {
          const BinnedMatrix* matrix = &matrix_;
          const std::uint32_t feature = applied[k].split.feature;
          const std::uint8_t* table = tables[k].data();
          const bool default_left = applied[k].split.default_left;
          return [matrix, feature, table, default_left](std::uint32_t row) {
            const int bin = matrix->LocalBin(row, feature);
            return bin < 0 ? default_left : table[bin] != 0;
          };
        },
        ctx_.Threads());
    return;
  }
  if (matrix_.layout() == BinnedMatrix::Layout::kDense8) {
    struct ColumnGoesLeft {
      const std::uint8_t* column;
      int split_bin;
      bool operator()(std::uint32_t row) const { return int(column[row]) <= split_bin; }
      void Prefetch(std::uint32_t row) const { __builtin_prefetch(column + row); }
    };
    partition_.Split(
        tasks,
        [&](std::size_t k) {
          return ColumnGoesLeft{matrix_.Dense8Column(applied[k].split.feature),
                                applied[k].split.split_bin};
        },
        ctx_.Threads());
    return;
  }
  partition_.Split(
      tasks,
      [&](std::size_t k) {
        const BinnedMatrix* matrix = &matrix_;
        const std::uint32_t feature = applied[k].split.feature;
        const int split_bin = applied[k].split.split_bin;
        return [matrix, feature, split_bin](std::uint32_t row) {
          return matrix->LocalBin(row, feature) <= split_bin;
        };
      },
      ctx_.Threads());
}

// Builds this rank's histogram of the smaller child of every parent (by hessian, a global
// quantity, so every rank picks the same child) in one batch and hands the level to the sync
// strategy. The siblings are parent - built: where the strategy derives while scanning (one
// process; by feature owner, each rank reading only its own features' bins), the evaluation
// of the next step writes them slice by slice as it scans them (derive_from); otherwise every
// rank needs whole siblings, so they are subtracted here.
void TreeGrower::BuildChildHistograms(GrowingTree& t, const Batch& parents) {
  const RegTree& tree = t.tree;
  std::vector<RowSpan> rows;
  std::vector<Histogram*> built;
  std::vector<const Histogram*> parent_hists, built_hists;
  std::vector<Histogram*> derived;
  const bool fuse = sync_->DerivesWhileScanning();
  for (const ExpandEntry& e : parents) {
    int build = tree.left[e.node], derive = tree.right[e.node];
    if (e.split.right_sum.hess < e.split.left_sum.hess) std::swap(build, derive);
    rows.push_back(HistogramRows(t.gpair, build));
    built.push_back(&t.HistOf(build));
    built_hists.push_back(built.back());
    // The sibling is derived in the parent's buffer (bin b of the sibling = bin b of the
    // parent - bin b of the built child, read nowhere else), so a level holds two histograms
    // per parent instead of three (Fashion-MNIST, depth 6: 32 x 2.4 MB less at the peak).
    auto parent_hist = t.hists.extract(e.node);
    parent_hist.key() = derive;
    Histogram* in_place = &t.hists.insert(std::move(parent_hist)).position->second;
    derived.push_back(in_place);
    parent_hists.push_back(in_place);
    if (fuse) t.derive_from[derive] = {derive, build};
  }
  builder_.Build(t.gpair, t.evaluator.Quantiser(), rows, built);
  sync_->SumLevel(built);
  if (!fuse) builder_.Subtract(parent_hists, built_hists, derived);
}

RegTree TreeGrower::Grow(const std::vector<GradientPair>& gpair,
                         const GradientQuantiser& quantiser) {
  const SplitEvaluator evaluator(param_, cuts_, quantiser);
  GrowingTree t(&spare_hists_, gpair, evaluator);
  // subsample: the rows left out of this tree have zero pairs and add nothing to any
  // histogram (integer sums), so each node's histogram is built from its sampled rows only,
  // which the partition keeps at the front of every node's range. A sparse root is built
  // column by column from all rows (BuildRoot), which needs no row list. The rows left out
  // go through no level either (they need a leaf only for the margins: PlaceLeftOutRows),
  // unless min_data_in_leaf counts them.
  sampled_ = param_.subsample < 1.0f;
  kept_only_ = sampled_ && param_.min_data_in_leaf <= 0;
  left_out_leaf_.clear();
  if (sampled_) {
    const std::size_t kept =
        partition_.ResetKeptFirst(matrix_.NumRows(), InSample{gpair.data()}, ctx_.Threads());
    if (kept_only_) partition_.DropLeftOut(kept);
  } else {
    partition_.Reset(matrix_.NumRows());
  }
  sampler_->NewTree();

  Histogram& root = t.HistOf(0);
  const bool by_columns = matrix_.layout() == BinnedMatrix::Layout::kSparse;
  const GradientPairInt local_root =
      RootFromForestTotal()
          ? BuildForestRoot(gpair, quantiser, &root)
          : builder_.BuildRoot(gpair, quantiser,
                               by_columns ? partition_.AllRows() : HistogramRows(gpair, 0), &root);
  sync_->SumLevel({&root});
  t.sums[0] = sync_->SumRoot(local_root);
  const float root_w = evaluator.Weight(t.sums[0]);
  t.tree.AddNode(-1, param_.eta * root_w, root_w, static_cast<float>(evaluator.H(t.sums[0])));
  ExpandQueue queue(param_);
  queue.Push(Evaluate(t, {0}, 0).front());
  int num_leaves = 1;
  for (Batch batch = queue.Pop(); !batch.empty(); batch = queue.Pop()) {
    const int depth = batch.front().depth + 1;
    Batch to_grow;
    for (const ExpandEntry& e : batch) {
      ApplySplit(t, e);
      ++num_leaves;
      if (ChildIsValid(param_, depth, num_leaves)) to_grow.push_back(e);
    }
    PartitionRows(batch, t.tree);
    BuildChildHistograms(t, to_grow);
    std::vector<int> children;
    for (const ExpandEntry& e : to_grow) {
      children.push_back(t.tree.left[e.node]);
      children.push_back(t.tree.right[e.node]);
    }
    const std::vector<ExpandEntry> evaluated = Evaluate(t, children, depth);
    // Parents are released after the evaluation: it derives the siblings from them.
    for (const ExpandEntry& e : batch) t.Release(e.node);
    for (const ExpandEntry& c : evaluated) {
      if (c.split.loss_chg > kRtEps)
        queue.Push(c);
      else
        t.Release(c.node);
    }
  }
  if (kept_only_) PlaceLeftOutRows(t.tree, t.split_bins);
  return std::move(t.tree);
}

}  // namespace treering::booster
