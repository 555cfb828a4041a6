// TreeSHAP's path algebra (Lundberg, Erion & Lee 2018, Algorithm 2), as XGBoost 1.7's
// tree_model.cc has it. A path is the distinct features split on from the root to the current
// node; element i's pweight is the total permutation weight of the subsets of size i, given
// that each feature is "one" (the row's value, fraction one_fraction of the weight flows) or
// "zero" (absent, fraction zero_fraction = the child's share of the cover). Extending by one
// feature or unwinding one again is O(depth), which makes the whole walk polynomial.
#pragma once

namespace treering::booster::shap {

struct PathElement {
  int feature_index;
  float zero_fraction;
  float one_fraction;
  float pweight;
};

// Appends a feature at position `depth` and updates the permutation weights.
inline void ExtendPath(PathElement* path, unsigned depth, float zero_fraction, float one_fraction,
                       int feature_index) {
  path[depth].feature_index = feature_index;
  path[depth].zero_fraction = zero_fraction;
  path[depth].one_fraction = one_fraction;
  path[depth].pweight = depth == 0 ? 1.0f : 0.0f;
  for (int i = static_cast<int>(depth) - 1; i >= 0; i--) {
    path[i + 1].pweight += one_fraction * path[i].pweight * (i + 1) / static_cast<float>(depth + 1);
    path[i].pweight = zero_fraction * path[i].pweight * (depth - i) / static_cast<float>(depth + 1);
  }
}

// Removes the element at `index` (a feature split on again lower down), inverting ExtendPath.
inline void UnwindPath(PathElement* path, unsigned depth, unsigned index) {
  const float one_fraction = path[index].one_fraction;
  const float zero_fraction = path[index].zero_fraction;
  float next_one_portion = path[depth].pweight;
  for (int i = static_cast<int>(depth) - 1; i >= 0; --i) {
    if (one_fraction != 0) {
      const float tmp = path[i].pweight;
      path[i].pweight = next_one_portion * (depth + 1) / static_cast<float>((i + 1) * one_fraction);
      next_one_portion =
          tmp - path[i].pweight * zero_fraction * (depth - i) / static_cast<float>(depth + 1);
    } else {
      path[i].pweight =
          (path[i].pweight * (depth + 1)) / static_cast<float>(zero_fraction * (depth - i));
    }
  }
  for (unsigned i = index; i < depth; ++i) {
    path[i].feature_index = path[i + 1].feature_index;
    path[i].zero_fraction = path[i + 1].zero_fraction;
    path[i].one_fraction = path[i + 1].one_fraction;
  }
}

// The total permutation weight the path would have with element `index` unwound (without
// changing the path): the weight of that feature's contribution at a leaf.
inline float UnwoundPathSum(const PathElement* path, unsigned depth, unsigned index) {
  const float one_fraction = path[index].one_fraction;
  const float zero_fraction = path[index].zero_fraction;
  float next_one_portion = path[depth].pweight;
  float total = 0;
  for (int i = static_cast<int>(depth) - 1; i >= 0; --i) {
    if (one_fraction != 0) {
      const float tmp = next_one_portion * (depth + 1) / static_cast<float>((i + 1) * one_fraction);
      total += tmp;
      next_one_portion =
          path[i].pweight - tmp * zero_fraction * ((depth - i) / static_cast<float>(depth + 1));
    } else if (zero_fraction != 0) {
      total += (path[i].pweight / zero_fraction) / ((depth - i) / static_cast<float>(depth + 1));
    }
    // Both fractions zero: the element carries no weight (XGBoost checks pweight == 0).
  }
  return total;
}

}  // namespace treering::booster::shap
