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

#include "base/context.h"
#include "booster/tree/grow/row_partition.h"
#include "booster/tree/hist/gradient_quantiser.h"
#include "booster/tree/hist/histogram.h"
#include "booster/tree/sketch/binned_matrix.h"
#include "booster/tree/sketch/hist_cuts.h"
#include "booster/tree/split/column_sampler.h"
#include "booster/tree/split/split_evaluator.h"
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

class HistogramSync;

class TreeGrower {
 public:
  // sync: how the ranks' histograms of each level are summed and searched
  // (booster/tree/sync/histogram_sync.h); the grower builds this rank's histograms and hands
  // every level and every evaluation to it. Everything given must outlive the grower.
  TreeGrower(const TreeParam& param, const HistogramCuts& cuts, const BinnedMatrix& matrix,
             ColumnSampler* sampler, const Context& ctx, HistogramSync* sync);

  // gpair: this rank's gradients, quantised by `quantiser` (scales from the global maxima)
  // as histograms read them; the root's statistics are their sum over all ranks.
  RegTree Grow(const std::vector<GradientPair>& gpair, const GradientQuantiser& quantiser);
  // The last tree's rows by node: with subsample < 1 its sampled rows only (the rows with a
  // non-zero pair), unless min_data_in_leaf counts every row of a node.
  const RowPartition& Partition() const { return partition_; }
  // The last tree's rows Partition() left out, and the leaf each row ends in (its node id);
  // Partition()'s leaves and these together hold every row once.
  struct LeftOutRows {
    RowSpan rows;
    const std::int32_t* leaf;
  };
  LeftOutRows LeftOut() const { return {partition_.LeftOut(), left_out_leaf_.data()}; }
  // Memory (docs/learner.md, "Bytes per row"): histogram buffers held between trees (the most
  // alive at once in any tree so far), and the bytes per cell of the bin columns (0: none).
  std::size_t HistogramBuffers() const { return spare_hists_.size(); }
  std::size_t BinColumnCellBytes() const {
    return !bin_columns8_.empty() ? 1 : !bin_columns_.empty() ? 2 : 0;
  }
  // A forest's trees until the next call: `unsampled` are the gradients every tree's sample
  // was drawn from (the pairs Grow gets, before the left-out rows were zeroed), so each
  // tree's root is the forest's whole-sample histogram minus its left-out rows'
  // (forest_root.cc). Null ends it; it must outlive the trees grown meanwhile.
  void SetForestGradients(const std::vector<GradientPair>* unsampled);

 private:
  using Batch = std::vector<ExpandEntry>;
  struct GrowingTree;  // tree_grower.cc: the state of one Grow call
  void ApplySplit(GrowingTree& t, const ExpandEntry& e);
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
  // Node's split as local bin -> goes left (its split_bin for a numerical split).
  std::vector<std::uint8_t> BinTable(const RegTree& tree, int node, int split_bin) const;
  // Each left-out row's leaf in the finished tree (left_out_leaf_), by the decisions the
  // partition makes (left_out_rows.cc); split_bins: per split node, its split_bin.
  void PlaceLeftOutRows(const RegTree& tree, const std::vector<std::int32_t>& split_bins);
  void BuildChildHistograms(GrowingTree& t, const Batch& parents);
  // forest_root.cc: whether this tree's root comes from the forest's total, and that build.
  bool RootFromForestTotal() const;
  GradientPairInt BuildForestRoot(const std::vector<GradientPair>& gpair,
                                  const GradientQuantiser& quantiser, Histogram* root);
  // A row in this tree's sample: a row sampled out has an all-zero pair (-0.0 too).
  struct InSample {
    const GradientPair* gpair;
    bool operator()(std::uint32_t row) const {
      return (gpair[row].grad != 0.0f) | (gpair[row].hess != 0.0f);  // no branch
    }
  };
  // The rows whose pairs a node's histogram needs: all of its rows, or with subsample the
  // sampled ones only (the others add zeros).
  RowSpan HistogramRows(const std::vector<GradientPair>& gpair, int node) const;
  std::vector<ExpandEntry> Evaluate(GrowingTree& t, const std::vector<int>& nodes, int depth);
  void SetNodeRows(const std::vector<int>& nodes,
                   std::vector<SplitEvaluator::NodeInput>* inputs) const;

  const TreeParam& param_;
  const HistogramCuts& cuts_;
  const BinnedMatrix& matrix_;
  ColumnSampler* sampler_;
  const Context& ctx_;
  HistogramSync* sync_;
  HistogramBuilder builder_;
  RowPartition partition_;
  bool sampled_ = false;    // this tree's partition holds the sampled rows first (subsample)
  bool kept_only_ = false;  // ... and only them (RowPartition::DropLeftOut)
  std::vector<std::int32_t> left_out_leaf_;  // LeftOut's leaves
  // SetForestGradients: the forest's unsampled pairs, and the histogram of every row at one
  // quantiser's scales (local to this rank, as the root before SumLevel).
  const std::vector<GradientPair>* forest_gpair_ = nullptr;
  struct ForestTotal {
    bool valid = false;
    double grad_unit = 0, hess_unit = 0;
    Histogram hist;
    GradientPairInt sum;
  } forest_total_;
  Histogram left_out_hist_;
  // Histogram buffers are recycled across nodes and trees (GrowingTree takes them from here
  // and gives them back): a fresh multi-MB buffer costs a page fault per 4 KiB on first touch,
  // more than building a deep node's histogram.
  std::vector<Histogram> spare_hists_;
  // Sparse partitioning scratch: the applied split each row belongs to, and its direction.
  std::vector<std::uint32_t> row_task_;
  std::vector<std::uint8_t> goes_left_;
  // One byte per cell when every feature has at most 255 bins (bin + 1 <= 255; Fashion-MNIST:
  // 47 MB instead of 94 MB), else two: the decisions are the same either way.
  std::vector<std::uint8_t> bin_columns8_;
  std::vector<std::uint16_t> bin_columns_;
  enum class BinColumns { kUnknown, kBuilt, kTooSparse } bin_columns_state_ = BinColumns::kUnknown;
};

}  // namespace treering::booster
