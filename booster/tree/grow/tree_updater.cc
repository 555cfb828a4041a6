#include "booster/tree/grow/tree_updater.h"

#include "booster/tree/sketch/categorical_cuts.h"
#include "booster/tree/sketch/page_matrix.h"
#include "data/external_columns.h"

namespace treering::booster {

Result<std::unique_ptr<TreeUpdater>> TreeUpdater::Create(const TreeParam& param,
                                                         const data::DMatrix& train,
                                                         std::uint32_t num_feature, bool exact,
                                                         std::uint64_t seed, const Context& ctx,
                                                         rabit::Comm* comm) {
  std::unique_ptr<TreeUpdater> u(new TreeUpdater(ctx, comm));
  if (exact) u->exact_.emplace(param, train, num_feature, ctx);
  Result<bool> external = ExternalTraining(train, *comm);  // page_matrix.h
  if (!external.ok()) return external.status();
  if (*external) {
    auto cuts = BuildCutsFromColumns(train, num_feature, param.max_bin, ctx.Threads(), *comm);
    if (!cuts.ok()) return cuts.status();
    u->cuts_ = std::move(cuts).value();
    // A streamed in-memory load's columns are binned into memory; a #cacheprefix's into pages.
    const bool in_memory = train.external && train.external->temporary();
    auto paged = in_memory ? BuildBinnedFromColumns(train, u->cuts_, ctx.Threads())
                           : BuildPagedMatrix(train, u->cuts_, param, ctx.Threads());
    if (!paged.ok()) return paged.status();
    u->binned_.emplace(std::move(paged).value());
  } else {
    u->cuts_ = BuildCuts(train, num_feature, param.max_bin, ctx.Threads(), *comm);
    if (Status s = SetCategoricalCuts(train, param, *comm, &u->cuts_); !s.ok()) return s;
    u->binned_.emplace(BinnedMatrix::Build(train, u->cuts_, ctx.Threads()));
  }
  u->sampler_.emplace(num_feature, param.colsample_bytree, param.colsample_bylevel,
                      param.colsample_bynode, seed);
  // Each rank's matrix carries the weights (as in XGBoost, which does not share them either):
  // ranks given different weights draw different features.
  if (!train.feature_weights.empty()) u->sampler_->SetFeatureWeights(train.feature_weights);
  u->sync_ = MakeHistogramSync(param, u->cuts_, comm, ctx);
  u->grower_.emplace(param, u->cuts_, *u->binned_, &*u->sampler_, ctx, u->sync_.get());
  return u;
}

RegTree TreeUpdater::Grow(const std::vector<GradientPair>& gpair, const GradientMaxima* maxima,
                          std::size_t tree_index) {
  if (exact_) return exact_->Grow(gpair);
  sampler_->Reseed(tree_index);
  const GradientQuantiser quantiser =
      maxima != nullptr ? GradientQuantiser::FromLocalMaxima(*maxima, gpair.size(), *comm_)
                        : GradientQuantiser::ForGradients(gpair, ctx_.Threads(), *comm_);
  return grower_->Grow(gpair, quantiser);
}

}  // namespace treering::booster
