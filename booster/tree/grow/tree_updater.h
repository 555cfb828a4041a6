// TreeUpdater: turns one output group's gradients into one tree, for one training set
// (XGBoost 1.7's updater: grow_quantile_histmaker, or grow_colmaker for tree_method=exact).
// It owns what the learner prepares once per training set: the cut points and the binned
// matrix, the column sampler, the histogram sync strategy and the grower. The learner
// (GBTreeLearner) only orchestrates: gradients, margins, dart, metrics, files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "base/context.h"
#include "base/status.h"
#include "booster/objective.h"
#include "booster/tree/grow/exact_grower.h"
#include "booster/tree/grow/row_partition.h"
#include "booster/tree/grow/tree_grower.h"
#include "booster/tree/sketch/binned_matrix.h"
#include "booster/tree/sketch/hist_cuts.h"
#include "booster/tree/split/column_sampler.h"
#include "booster/tree/sync/histogram_sync.h"
#include "booster/tree_model.h"
#include "booster/tree_param.h"
#include "data/dmatrix.h"
#include "rabit/comm.h"

namespace treering::booster {

class TreeUpdater {
 public:
  // A collective (the sketch is merged over the ranks). exact: tree_method=exact as resolved
  // by the learner (the cuts are made anyway: they fix the model's feature count the same way).
  // param, train, ctx and comm must outlive the updater.
  static Result<std::unique_ptr<TreeUpdater>> Create(const TreeParam& param,
                                                     const data::DMatrix& train,
                                                     std::uint32_t num_feature, bool exact,
                                                     std::uint64_t seed, const Context& ctx,
                                                     rabit::Comm* comm);

  bool Exact() const { return exact_.has_value(); }
  const HistogramCuts& Cuts() const { return cuts_; }
  // Grows tree number `tree_index` of the model (it reseeds the column sampler, so a resumed
  // job draws what the uninterrupted one drew). maxima: the gradients' maxima when already
  // known (one group, no subsampling), else null.
  RegTree Grow(const std::vector<GradientPair>& gpair, const GradientMaxima* maxima,
               std::size_t tree_index);
  // The trees grown until the next call form one forest sampled from `unsampled`
  // (TreeGrower::SetForestGradients; hist only). Null ends it.
  void SetForestGradients(const std::vector<GradientPair>* unsampled) {
    if (grower_) grower_->SetForestGradients(unsampled);
  }
  // The rows of every node of the last hist tree (not for exact: colmaker keeps none).
  const RowPartition& Partition() const { return grower_->Partition(); }
  // The rows Partition() left out and their leaves (TreeGrower::LeftOut).
  TreeGrower::LeftOutRows LeftOut() const { return grower_->LeftOut(); }

 private:
  TreeUpdater(const Context& ctx, rabit::Comm* comm) : ctx_(ctx), comm_(comm) {}

  const Context& ctx_;
  rabit::Comm* comm_;
  std::optional<ExactGrower> exact_;
  HistogramCuts cuts_;
  std::optional<BinnedMatrix> binned_;
  std::optional<ColumnSampler> sampler_;
  std::unique_ptr<HistogramSync> sync_;  // how the ranks' histograms meet, chosen once here
  std::optional<TreeGrower> grower_;
};

}  // namespace treering::booster
