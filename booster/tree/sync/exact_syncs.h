// The histogram sync strategies whose trees are one process's, bit for bit
// (histogram_sync.h): one process, the allreduce, and the reduce-scatter by feature owner.
#pragma once

#include <cstdint>
#include <vector>

#include "booster/tree/sync/feature_owners.h"
#include "booster/tree/sync/histogram_sync.h"

namespace treering::booster {

// A world of one: nothing to sum; every (node, feature) pair is scanned here, and a sibling is
// derived while its features are scanned.
class LocalSync final : public HistogramSync {
 public:
  explicit LocalSync(const Context& ctx) : ctx_(ctx) {}
  GradientPairInt SumRoot(GradientPairInt local) override { return local; }
  void SumCounts(std::vector<std::uint64_t>*) override {}
  void SumLevel(const std::vector<Histogram*>&) override {}
  bool DerivesWhileScanning() const override { return true; }
  std::vector<SplitCandidate> EvaluateNodes(const std::vector<int>& ids,
                                            const std::vector<SplitEvaluator::NodeInput>& nodes,
                                            const std::vector<RowSpan>& rows,
                                            const std::vector<GradientPair>& gpair,
                                            const SplitEvaluator& evaluator) override;

 private:
  const Context& ctx_;
};

// tree_learner=allreduce: each level's histograms are allreduced in ONE call over one
// contiguous buffer, so every rank holds every sum; the (node, feature) scans are dealt
// round-robin (Share) and BestOverRanks combines them.
class AllreduceSync : public HistogramSync {
 public:
  AllreduceSync(rabit::Comm* comm, std::uint32_t total_bins, const Context& ctx)
      : comm_(comm), total_bins_(total_bins), ctx_(ctx) {}
  GradientPairInt SumRoot(GradientPairInt local) override { return GlobalSum(local, *comm_); }
  void SumCounts(std::vector<std::uint64_t>* counts) override;
  void SumLevel(const std::vector<Histogram*>& built) override;
  bool DerivesWhileScanning() const override { return false; }
  std::vector<SplitCandidate> EvaluateNodes(const std::vector<int>& ids,
                                            const std::vector<SplitEvaluator::NodeInput>& nodes,
                                            const std::vector<RowSpan>& rows,
                                            const std::vector<GradientPair>& gpair,
                                            const SplitEvaluator& evaluator) override;

 protected:
  // The (node, feature) pairs this rank scans.
  virtual ScanShare Share() const { return {comm_->WorldSize(), comm_->Rank(), nullptr}; }

  rabit::Comm* comm_;
  std::uint32_t total_bins_;
  const Context& ctx_;
  // The level's histograms back to back for the one collective; kept between levels and trees
  // (a fresh buffer per level is a level's worth of page faults, each level).
  std::vector<GradientPairInt> level_buffer_;
};

// tree_learner=data (LightGBM's data-parallel learner): each level is reduce-scattered by
// feature owner (feature_owners.h), so each rank holds the sums of its own features' bins
// only, scans only those (Share), and derives only their slices of a sibling while scanning.
class FeatureOwnerSync final : public AllreduceSync {
 public:
  FeatureOwnerSync(const HistogramCuts& cuts, rabit::Comm* comm, const Context& ctx)
      : AllreduceSync(comm, cuts.TotalBins(), ctx),
        owners_(cuts.ptrs, comm->WorldSize(), comm->Rank()) {}
  void SumLevel(const std::vector<Histogram*>& built) override;
  bool DerivesWhileScanning() const override { return true; }

 private:
  ScanShare Share() const override {
    return {owners_.World(), owners_.Rank(), &owners_.OwnerOfFeature()};
  }

  FeatureOwners owners_;
};

}  // namespace treering::booster
