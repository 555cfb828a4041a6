#include "booster/tree_param.h"

namespace treering::booster {

const ParamTable<TreeParam>& TreeParam::Table() {
  using P = TreeParam;
  constexpr RealRange kNonNegative{.lo = 0};
  constexpr RealRange kFraction{.lo = 0, .hi = 1, .lo_open = true};
  static const ParamTable<P> kTable({
      RealField("eta", &P::eta, kNonNegative, "step size shrinkage applied to leaf values")
          .Alias("learning_rate"),
      RealField("gamma", &P::min_split_loss, kNonNegative,
                "minimum loss reduction (loss_chg) to make a split")
          .Alias("min_split_loss"),
      IntField("max_depth", &P::max_depth, 0, 64,
               "maximum tree depth, 0 = unlimited (lossguide with max_leaves only)"),
      IntField("max_leaves", &P::max_leaves, 0, 2147483647LL,
               "maximum number of leaves, 0 = unlimited"),
      RealField("min_child_weight", &P::min_child_weight, kNonNegative,
                "minimum hessian sum in a child"),
      RealField("max_delta_step", &P::max_delta_step, kNonNegative,
                "clip leaf weights to [-x, x], 0 = off (0.7 for count:poisson)")
          .MarkSet(&P::max_delta_step_set),
      RealField("subsample", &P::subsample, kFraction, "fraction of rows sampled per tree"),
      RealField("colsample_bytree", &P::colsample_bytree, kFraction,
                "fraction of features sampled per tree"),
      RealField("colsample_bylevel", &P::colsample_bylevel, kFraction,
                "fraction of the tree's features sampled per level"),
      RealField("colsample_bynode", &P::colsample_bynode, kFraction,
                "fraction of the level's features sampled per node"),
      RealField("lambda", &P::reg_lambda, kNonNegative, "L2 regularisation on leaf weights")
          .Alias("reg_lambda"),
      RealField("alpha", &P::reg_alpha, kNonNegative, "L1 regularisation on leaf weights")
          .Alias("reg_alpha"),
      IntField("max_bin", &P::max_bin, 2, 65536,
               "maximum number of histogram bins per feature (uint8 dense bins up to 256, "
               "uint16 above)"),
      EnumField("grow_policy", &P::grow_policy,
                {{"depthwise", GrowPolicy::kDepthWise}, {"lossguide", GrowPolicy::kLossGuide}},
                "depthwise grows level by level (max_depth), lossguide the best leaf first "
                "(max_leaves)"),
      ChoiceField("tree_method", &P::tree_method, {"auto", "exact", "approx", "hist"},
                  "auto picks exact on one machine below 4M rows, else approx (XGBoost 1.7); "
                  "approx is grown as hist"),
  });
  return kTable;
}

Status TreeParam::Validate() const {
  if (max_depth == 0 && max_leaves == 0) {
    return Status::InvalidKey(
        "max_depth",
        "parameter max_depth: 0 (unlimited) needs max_leaves > 0, or the tree is unbounded");
  }
  if (max_depth == 0 && grow_policy == GrowPolicy::kDepthWise) {
    return Status::InvalidKey("max_depth",
                              "parameter max_depth: 0 (unlimited) needs grow_policy=lossguide");
  }
  return Status::Ok();
}

}  // namespace treering::booster
