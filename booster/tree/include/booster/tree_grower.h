// TreeGrower: grows one regression tree from gradient pairs with XGBoost 1.7's hist driver:
// depthwise expands a whole level per batch (one histogram allreduce per level), lossguide
// the single best leaf; node ids are assigned in expansion order as XGBoost does, so the
// saved arrays match XGBoost's. After Grow, Partition() gives each leaf's rows, from which
// the learner updates training margins without walking the tree again.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "booster/binned_matrix.h"
#include "booster/column_sampler.h"
#include "booster/gradient_quantiser.h"
#include "booster/hist_cuts.h"
#include "booster/histogram.h"
#include "booster/row_partition.h"
#include "booster/split_evaluator.h"
#include "booster/tree_model.h"
#include "booster/tree_param.h"

namespace treering::booster {

struct ExpandEntry {
  int node = 0;
  int depth = 0;
  SplitCandidate split;
  // XGBoost's CPUExpandEntry::IsValid: worth splitting and within depth/leaf limits.
  bool IsValid(const TreeParam& param, int num_leaves) const;
};

class FeatureOwners;
class VotingSplitSearch;

class TreeGrower {
 public:
  // Distributed with tree_learner=data (and no categorical feature), each level's histograms
  // are reduce-scattered by feature owner and each rank evaluates only its own features
  // (feature_owners.h); with tree_learner=voting they stay local and only the features the
  // ranks vote for are summed (voting_split_search.h); otherwise allreduced, every rank
  // evaluating a round-robin share.
  TreeGrower(const TreeParam& param, const HistogramCuts& cuts, const BinnedMatrix& matrix,
             ColumnSampler* sampler, int nthread, rabit::Comm* comm);
  ~TreeGrower();

  // gpair: this rank's gradients, quantised by `quantiser` (scales from the global maxima)
  // as histograms read them; the root's statistics are their sum over all ranks.
  RegTree Grow(const std::vector<GradientPair>& gpair, const GradientQuantiser& quantiser);
  const RowPartition& Partition() const { return partition_; }

 private:
  using Batch = std::vector<ExpandEntry>;
  void ApplySplit(const ExpandEntry& e, RegTree* tree);
  void PartitionRows(const Batch& applied, const RegTree& tree);
  // tables: empty, or per split its local bin -> goes left (when a split is categorical).
  void DecideByColumns(const Batch& applied, const std::vector<std::vector<std::uint8_t>>& tables);
  // Sparse layout, mostly full: every feature's local bin + 1 of every row
  // (0 = missing), column-major, so a decision is one read as for dense data. Built at the
  // first partition; false when the data is sparser (the columns are walked instead).
  bool BuildBinColumns();
  // PartitionRows through bin_columns_ (column_decisions.cc).
  void PartitionByBinColumns(const std::vector<RowPartition::SplitTask>& tasks,
                             const Batch& applied,
                             const std::vector<std::vector<std::uint8_t>>& tables);
  // Per split of the batch, local bin -> goes left; empty when every split is numerical.
  std::vector<std::vector<std::uint8_t>> BinTables(const Batch& applied, const RegTree& tree) const;
  void BuildChildHistograms(const Batch& parents, const RegTree& tree);
  std::vector<ExpandEntry> Evaluate(const std::vector<int>& nodes, int depth);
  void SetNodeRows(const std::vector<int>& nodes,
                   std::vector<SplitEvaluator::NodeInput>* inputs) const;
  // Histogram buffers are recycled across nodes and trees: a fresh multi-MB buffer costs a
  // page fault per 4 KiB on first touch, more than building a deep node's histogram.
  Histogram& HistOf(int node);
  void ReleaseHist(int node);

  const TreeParam& param_;
  const HistogramCuts& cuts_;
  const BinnedMatrix& matrix_;
  ColumnSampler* sampler_;
  int nthread_;
  rabit::Comm* comm_;
  std::unique_ptr<FeatureOwners> owners_;      // null: histograms are allreduced
  std::unique_ptr<VotingSplitSearch> voting_;  // set: histograms stay local (tree_learner=voting)
  HistogramBuilder builder_;
  RowPartition partition_;
  // Per-tree state.
  const std::vector<GradientPair>* gpair_ = nullptr;
  const SplitEvaluator* evaluator_ = nullptr;
  std::map<int, Histogram> hists_;       // nodes whose histogram is still needed
  std::vector<Histogram> spare_hists_;   // released buffers, reused by HistOf
  std::map<int, GradientPairInt> sums_;  // gradient sum of every node
  std::map<int, WeightBounds> bounds_;   // monotone constraints' weight bounds of every node
  // interaction_constraints: features split on along each node's path (ascending).
  std::map<int, std::vector<std::uint32_t>> path_features_;
  // Siblings whose histogram the next evaluation derives (parent - built), single process.
  struct Derivation {
    int parent, built;
  };
  std::map<int, Derivation> derive_from_;
  // Sparse partitioning scratch: the applied split each row belongs to, and its direction.
  std::vector<std::uint32_t> row_task_;
  std::vector<std::uint8_t> goes_left_;
  std::vector<std::uint16_t> bin_columns_;
  enum class BinColumns { kUnknown, kBuilt, kTooSparse } bin_columns_state_ = BinColumns::kUnknown;
};

}  // namespace treering::booster
