#include "booster/tree_grower.h"

#include <algorithm>

#include "base/parallel_for.h"
#include "booster/work_split.h"
#include "expand_queue.h"
#include "feature_owners.h"
#include "interaction_constraints.h"
#include "voting_split_search.h"

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
                       const BinnedMatrix& matrix, ColumnSampler* sampler, int nthread,
                       rabit::Comm* comm)
    : param_(param),
      cuts_(cuts),
      matrix_(matrix),
      sampler_(sampler),
      nthread_(nthread),
      comm_(comm),
      voting_(comm->IsDistributed() && param.tree_learner == TreeLearner::kVoting
                  ? std::make_unique<VotingSplitSearch>(param, cuts, comm, nthread)
                  : nullptr),
      builder_(&matrix, cuts.TotalBins(), nthread, voting_ ? voting_->LocalComm() : comm) {
  // Categorical splits read the split feature's whole histogram on every rank (CategorySet).
  if (comm->IsDistributed() && param.tree_learner == TreeLearner::kData &&
      !param.HasCategorical()) {
    owners_ = std::make_unique<FeatureOwners>(cuts.ptrs, comm->WorldSize(), comm->Rank());
    builder_.SetFeatureOwners(owners_.get());
  }
}

TreeGrower::~TreeGrower() = default;

Histogram& TreeGrower::HistOf(int node) {
  auto it = hists_.find(node);
  if (it != hists_.end()) return it->second;
  Histogram hist;
  if (!spare_hists_.empty()) {
    hist.swap(spare_hists_.back());
    spare_hists_.pop_back();
  }
  return hists_.emplace(node, std::move(hist)).first->second;
}

void TreeGrower::ReleaseHist(int node) {
  auto it = hists_.find(node);
  if (it == hists_.end()) return;
  spare_hists_.push_back(std::move(it->second));
  hists_.erase(it);
}

std::vector<ExpandEntry> TreeGrower::Evaluate(const std::vector<int>& nodes, int depth) {
  std::vector<SplitEvaluator::NodeInput> inputs;
  const InteractionConstraints interactions(param_.interaction_constraints);
  for (int node : nodes) {
    // Sampled first, then filtered, as XGBoost: the sampler's draws do not depend on it.
    std::vector<std::uint32_t> features =
        interactions.Allowed(path_features_[node], sampler_->NodeFeatures(depth));
    inputs.push_back({&hists_[node], sums_[node], std::move(features), bounds_[node]});
    const auto from = derive_from_.find(node);
    if (from == derive_from_.end()) continue;
    inputs.back().derive = &hists_[node];
    inputs.back().parent = &hists_.at(from->second.parent);
    inputs.back().built = &hists_.at(from->second.built);
  }
  if (param_.min_data_in_leaf > 0) SetNodeRows(nodes, &inputs);
  std::vector<RowSpan> rows;
  if (voting_ != nullptr) {
    for (int node : nodes) rows.push_back(partition_.Rows(node));
  }
  const std::vector<SplitCandidate> best =
      voting_ != nullptr ? voting_->EvaluateNodes(nodes, inputs, rows, *gpair_, *evaluator_)
                         : evaluator_->EvaluateNodes(inputs, nthread_);
  derive_from_.clear();
  std::vector<ExpandEntry> entries(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) entries[i] = {nodes[i], depth, best[i]};
  return entries;
}

// min_data_in_leaf compares with the node's rows on all ranks: one small sum per step.
void TreeGrower::SetNodeRows(const std::vector<int>& nodes,
                             std::vector<SplitEvaluator::NodeInput>* inputs) const {
  std::vector<std::uint64_t> rows(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) rows[i] = partition_.NumRows(nodes[i]);
  if (comm_->IsDistributed()) comm_->Allreduce<rabit::op::Sum>(rows.data(), rows.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) (*inputs)[i].rows = rows[i];
}

void TreeGrower::ApplySplit(const ExpandEntry& e, RegTree* tree) {
  const SplitCandidate& s = e.split;
  const WeightBounds bounds = bounds_[e.node];
  const float wl = evaluator_->Weight(s.left_sum, bounds);
  const float wr = evaluator_->Weight(s.right_sum, bounds);
  const int left = tree->AddNode(e.node, wl * param_.eta, wl * param_.eta,
                                 static_cast<float>(evaluator_->H(s.left_sum)));
  const int right = tree->AddNode(e.node, wr * param_.eta, wr * param_.eta,
                                  static_cast<float>(evaluator_->H(s.right_sum)));
  const GradientPairInt parent_sum = sums_.at(e.node);
  tree->left[e.node] = left;
  tree->right[e.node] = right;
  if (voting_ != nullptr) voting_->Split(e.node, left, right);
  tree->split_index[e.node] = s.feature;
  tree->split_cond[e.node] = s.split_value;
  if (s.cat_kind != SplitCandidate::kNone) {  // NaN condition, as XGBoost's ExpandCategorical
    tree->categories[e.node] = evaluator_->CategorySet(hists_.at(e.node), s);
  }
  tree->default_left[e.node] = s.default_left ? 1 : 0;
  tree->base_weight[e.node] = evaluator_->Weight(parent_sum, bounds);
  evaluator_->ChildBounds(bounds, s.feature, wl, wr, &bounds_[left], &bounds_[right]);
  if (!param_.interaction_constraints.empty()) {
    std::vector<std::uint32_t> path = path_features_[e.node];
    const auto at = std::lower_bound(path.begin(), path.end(), s.feature);
    if (at == path.end() || *at != s.feature) path.insert(at, s.feature);
    path_features_[left] = path;
    path_features_[right] = std::move(path);
  }
  tree->loss_change[e.node] = s.loss_chg;
  tree->sum_hess[e.node] = static_cast<float>(evaluator_->H(parent_sum));
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
    const SplitCandidate& s = applied[k].split;
    std::vector<std::uint8_t>& table = tables[k];
    table.assign(cuts_.FeatureBins(s.feature), 0);
    if (tree.IsCategorical(applied[k].node)) {
      std::fill(table.begin(), table.end(), 1);  // a category outside the set goes left
      for (const std::int32_t c : tree.categories.at(applied[k].node)) table[c] = 0;
    } else {
      for (int b = 0; b <= s.split_bin; ++b) table[b] = 1;
    }
  }
  return tables;
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
        nthread_);
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
        nthread_);
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
        nthread_);
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
      nthread_);
}

// Builds the smaller child of every parent (by hessian, a global quantity, so every rank
// picks the same child) in one batch. The siblings are parent - built: in one process, or
// distributed by feature owner (each rank reads only its own features' bins), the evaluation
// of the next step writes them slice by slice as it scans them (derive_from_); with the
// allreduce, every rank needs whole siblings, so they are subtracted here.
void TreeGrower::BuildChildHistograms(const Batch& parents, const RegTree& tree) {
  std::vector<RowSpan> rows;
  std::vector<Histogram*> built;
  std::vector<const Histogram*> parent_hists, built_hists;
  std::vector<Histogram*> derived;
  const bool fuse = !comm_->IsDistributed() || owners_ != nullptr;
  for (const ExpandEntry& e : parents) {
    int build = tree.left[e.node], derive = tree.right[e.node];
    if (e.split.right_sum.hess < e.split.left_sum.hess) std::swap(build, derive);
    rows.push_back(partition_.Rows(build));
    built.push_back(&HistOf(build));
    built_hists.push_back(built.back());
    derived.push_back(&HistOf(derive));
    parent_hists.push_back(&hists_[e.node]);
    if (fuse) {
      derived.back()->resize(cuts_.TotalBins());  // a recycled buffer is already this size
      derive_from_[derive] = {e.node, build};
    }
  }
  builder_.Build(*gpair_, evaluator_->Quantiser(), rows, built);
  if (!fuse) builder_.Subtract(parent_hists, built_hists, derived);
}

RegTree TreeGrower::Grow(const std::vector<GradientPair>& gpair,
                         const GradientQuantiser& quantiser) {
  // A tree that ended in an exception (a collective's failure, bad_alloc) may have left
  // histograms and pending derivations behind: none may reach this tree's nodes.
  derive_from_.clear();
  while (!hists_.empty()) ReleaseHist(hists_.begin()->first);
  SplitEvaluator evaluator(param_, cuts_, quantiser, comm_);
  if (owners_ != nullptr) evaluator.SetFeatureOwners(&owners_->OwnerOfFeature());
  evaluator_ = &evaluator;
  gpair_ = &gpair;
  sums_.clear();
  bounds_.clear();
  path_features_.clear();
  partition_.Reset(matrix_.NumRows());
  sampler_->NewTree();

  RegTree tree;
  sums_[0] =
      GlobalSum(builder_.BuildRoot(gpair, quantiser, partition_.Rows(0), &HistOf(0)), *comm_);
  const float root_w = evaluator.Weight(sums_[0]);
  tree.AddNode(-1, param_.eta * root_w, root_w, static_cast<float>(evaluator.H(sums_[0])));
  ExpandQueue queue(param_);
  queue.Push(Evaluate({0}, 0).front());
  int num_leaves = 1;
  for (Batch batch = queue.Pop(); !batch.empty(); batch = queue.Pop()) {
    const int depth = batch.front().depth + 1;
    Batch to_grow;
    for (const ExpandEntry& e : batch) {
      ApplySplit(e, &tree);
      sums_[tree.left[e.node]] = e.split.left_sum;
      sums_[tree.right[e.node]] = e.split.right_sum;
      ++num_leaves;
      if (ChildIsValid(param_, depth, num_leaves)) to_grow.push_back(e);
    }
    PartitionRows(batch, tree);
    BuildChildHistograms(to_grow, tree);
    std::vector<int> children;
    for (const ExpandEntry& e : to_grow) {
      children.push_back(tree.left[e.node]);
      children.push_back(tree.right[e.node]);
    }
    const std::vector<ExpandEntry> evaluated = Evaluate(children, depth);
    // Parents are released after the evaluation: it derives the siblings from them.
    for (const ExpandEntry& e : batch) ReleaseHist(e.node);
    for (const ExpandEntry& c : evaluated) {
      if (c.split.loss_chg > kRtEps)
        queue.Push(c);
      else
        ReleaseHist(c.node);
    }
  }
  while (!hists_.empty()) ReleaseHist(hists_.begin()->first);
  evaluator_ = nullptr;
  gpair_ = nullptr;
  return tree;
}

}  // namespace treering::booster
