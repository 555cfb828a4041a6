// XGBoost 1.7's adaptive leaves (src/objective/adaptive.cc, common/stats.h) for
// reg:absoluteerror: after the hist grower builds a tree, each leaf's value becomes the alpha
// quantile of its rows' residuals (label - margin before the tree), and the first base_score is
// the weighted median of the labels. 1.7 does not scale the refreshed value by eta (2.0 does);
// python3-xgboost 1.7.4 is the reference, so neither does treering.
#pragma once

#include <vector>

#include "booster/objective.h"
#include "booster/tree/grow/row_partition.h"
#include "booster/tree_model.h"
#include "rabit/comm.h"

namespace treering::booster {

// common::Quantile: linear interpolation between order statistics (NIST's method); NaN when
// `values` is empty. Sorts a copy of the indices, ties kept in input order.
float InterpolatedQuantile(double alpha, const std::vector<float>& values);
// common::WeightedQuantile: a step function of the float running weight sum, no interpolation.
float WeightedQuantile(double alpha, const std::vector<float>& values,
                       const std::vector<float>& weights);

// The rows of one tree's leaves and what the refresh reads of them.
struct LeafRefreshInput {
  const RowPartition* partition;
  const std::vector<float>* margins;  // one per row (one output group), before the tree
  LabelView labels;
  const std::vector<GradientPair>* gpair;  // rows with hessian 0 (sampled out) are left out
  // Several outputs (reg:quantileerror's alphas, a multi-target model): margins hold `groups`
  // values per row and the tree is output `group`'s; labels.label_columns > 1 picks the
  // group's label column, else the row's one label.
  int group = 0;
  int groups = 1;
  // Multiplies each refreshed leaf: XGBoost 2.x's UpdateLeafValues scales by eta, 1.7 not.
  float eta = 1.0f;
};

// Sets every leaf of `tree` to the alpha quantile of its rows' residuals. Unweighted rows: the
// quantile of all ranks' rows (global_quantile.h), so the leaf is one process's whatever the
// sharding; weighted rows on several ranks: the mean over ranks of their local quantiles
// (ranks without rows in the leaf do not count), as 1.7's UpdateLeafValues. A leaf no rank
// has rows in keeps its value.
void RefreshLeaves(double alpha, const LeafRefreshInput& in, int nthread, rabit::Comm* comm,
                   RegTree* tree);

// ObjFunction::InitEstimation of MeanAbsoluteError: sum over ranks of (median * weight sum)
// over the total weight; 0.5 (XGBoost's default) when the weights sum to ~0. Unweighted rows
// on several ranks: the median of all ranks' labels instead (one process's value).
float MedianBaseScore(const LabelView& labels, rabit::Comm* comm);

// XGBoost 2.x's reg:quantileerror InitEstimation: the mean over `alphas` of the labels'
// (weighted) alpha-quantiles, averaged over ranks weighted by each rank's weight sum (in
// double, over the total + 1e-6); 2.x's placeholder for a per-output intercept.
float QuantileBaseScore(const std::vector<float>& alphas, const LabelView& labels,
                        rabit::Comm* comm);

}  // namespace treering::booster
