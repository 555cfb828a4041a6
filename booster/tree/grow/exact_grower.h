// ExactGrower: XGBoost 1.7's tree_method=exact (updaters grow_colmaker,prune) on one machine.
// Every distinct value of a feature is a split candidate: each column is sorted once, and every
// level walks the columns forwards (missing values go right) and backwards (missing go left),
// summing gradients in double as colmaker does, so the trees equal XGBoost's node for node.
// Single process only: XGBoost 1.7 refuses exact when distributed, and so does the learner.
#pragma once

#include <cstdint>
#include <vector>

#include "base/context.h"
#include "booster/objective.h"
#include "booster/tree_model.h"
#include "booster/tree_param.h"
#include "data/dmatrix.h"

namespace treering::booster {

class ExactGrower {
 public:
  // Sorts the columns of `dm` (which must outlive the grower).
  ExactGrower(const TreeParam& param, const data::DMatrix& dm, std::uint32_t num_feature,
              const Context& ctx);

  // Grows and prunes one tree; rows with a negative hessian are left out, as in colmaker.
  RegTree Grow(const std::vector<GradientPair>& gpair) const;

 private:
  // Node 0 for every row, -1 for rows colmaker leaves out (negative hessian).
  std::vector<int> LevelPositions(const std::vector<GradientPair>& gpair) const;

  struct ColumnEntry {
    float value;
    std::uint32_t row;
  };
  const TreeParam& param_;
  const data::DMatrix& dm_;
  const Context& ctx_;
  std::vector<std::uint64_t> col_ptr_;  // feature f owns entries [col_ptr_[f], col_ptr_[f+1])
  std::vector<ColumnEntry> entries_;    // ascending value within a column
  std::vector<std::uint8_t> forward_;   // colmaker's NeedForwardSearch per feature
};

}  // namespace treering::booster
