// GradientStats: the sums coordinate descent takes over the training rows, and the residual
// updates after a step, for the rows of this rank; every sum is allreduced through the comm, so
// all ranks take the same step and N ranks train the one-process model (to the order in which
// the ranks' partial sums are added).
//
// Determinism: a column (or the bias's rows) is summed in fixed blocks of kBlock entries, each
// block from 0.0, and the block sums added in order: the result does not depend on the thread
// count. A sparse column of at most kBlock entries is summed exactly as XGBoost's one-thread
// loop sums it; a dense column uses four interleaved accumulators per block (DenseSums), which
// differs from XGBoost's single chain in the last bits of a double only.
#pragma once

#include <cstddef>
#include <vector>

#include "base/context.h"
#include "booster/linear/coordinate.h"
#include "booster/linear/feature_columns.h"
#include "booster/objective.h"
#include "rabit/comm.h"

namespace treering::booster::linear {

class GradientStats {
 public:
  static constexpr std::size_t kBlock = std::size_t{1} << 16;

  GradientStats(const FeatureColumns* columns, int groups, const Context* ctx, rabit::Comm* comm)
      : columns_(columns), groups_(groups), ctx_(ctx), comm_(comm) {}

  // gpair: rows x groups, row-major; pairs with a negative hessian are left out (XGBoost's rule
  // for rows a sampler dropped).
  GradSums Bias(int group, const std::vector<GradientPair>& gpair) const;
  GradSums Feature(std::size_t feature, int group, const std::vector<GradientPair>& gpair) const;
  // Every feature's sums for `group` (all groups when group < 0, then feature-major within each
  // group: out[g * F + f]), in one allreduce.
  void AllFeatures(int group, const std::vector<GradientPair>& gpair,
                   std::vector<GradSums>* out) const;
  // Residuals after a step: grad += hess * dbias, or grad += hess * x * dw.
  void ApplyBias(int group, float dbias, std::vector<GradientPair>* gpair) const;
  void ApplyFeature(std::size_t feature, int group, float dw,
                    std::vector<GradientPair>* gpair) const;
  // ApplyFeature(prev, group, dw) then Feature(feature, group): one pass over the rows when
  // both columns are dense (each row's residual is updated before it is read, as in two passes).
  GradSums ApplyThenSum(std::size_t prev, float dw, std::size_t feature, int group,
                        std::vector<GradientPair>* gpair) const;
  // The instance weight sum over all ranks (XGBoost's sum_instance_weight_).
  double WeightSum(const std::vector<float>& weights, std::size_t rows) const;

 private:
  GradSums ColumnSums(std::size_t feature, int group, const std::vector<GradientPair>& gpair,
                      int nthread) const;
  void Reduce(GradSums* sums, std::size_t n) const;
  static int StepThreads(std::size_t work, int threads);

  const FeatureColumns* columns_;
  int groups_;
  const Context* ctx_;
  rabit::Comm* comm_;
};

}  // namespace treering::booster::linear
