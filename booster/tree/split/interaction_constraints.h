// interaction_constraints (XGBoost 1.7's FeatureInteractionConstraintHost): which features a
// node may split on, given the features split on along its path from the root. The root may
// use any feature; below it, the path's own features and every group that holds all of them.
// So a path's features always fit in one group (or are one feature outside every group).
#pragma once

#include <cstdint>
#include <vector>

namespace treering::booster {

class InteractionConstraints {
 public:
  // groups: XGBoost's [[0,1],[2,3,4]], already parsed; empty = no constraint.
  explicit InteractionConstraints(const std::vector<std::vector<std::uint32_t>>& groups);
  bool Enabled() const { return !groups_.empty(); }
  // The subset of `sampled` (ascending) a node whose path split on `path` (ascending, unique)
  // may use.
  std::vector<std::uint32_t> Allowed(const std::vector<std::uint32_t>& path,
                                     const std::vector<std::uint32_t>& sampled) const;

 private:
  std::vector<std::vector<std::uint32_t>> groups_;  // each ascending, unique
};

}  // namespace treering::booster
