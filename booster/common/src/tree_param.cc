#include "booster/tree_param.h"

namespace treering::booster {

const std::vector<ParamField<TreeParam>>& TreeParam::Fields() {
  using P = TreeParam;
  static const std::vector<ParamField<P>> kFields = {
      {"eta", "learning_rate", "0.3", "step size shrinkage applied to leaf values, [0, inf)",
       [](P* p, const std::string& v) { return ParseFloatIn("eta", v, 0, kInf, false, &p->eta); }},
      {"gamma", "min_split_loss", "0",
       "minimum loss reduction to make a split, [0, inf)",
       [](P* p, const std::string& v) {
         return ParseFloatIn("gamma", v, 0, kInf, false, &p->min_split_loss);
       }},
      {"max_depth", "", "6", "maximum tree depth, 0 = unlimited (lossguide only), [0, 64]",
       [](P* p, const std::string& v) { return ParseIntIn("max_depth", v, 0, 64, &p->max_depth); }},
      {"max_leaves", "", "0", "maximum number of leaves, 0 = unlimited, [0, 2^31)",
       [](P* p, const std::string& v) {
         return ParseIntIn("max_leaves", v, 0, 2147483647LL, &p->max_leaves);
       }},
      {"min_child_weight", "", "1", "minimum hessian sum in a child, [0, inf)",
       [](P* p, const std::string& v) {
         return ParseFloatIn("min_child_weight", v, 0, kInf, false, &p->min_child_weight);
       }},
      {"max_delta_step", "", "0",
       "clip leaf weights to [-x, x], 0 = off (0.7 for count:poisson), [0, inf)",
       [](P* p, const std::string& v) {
         p->max_delta_step_set = true;
         return ParseFloatIn("max_delta_step", v, 0, kInf, false, &p->max_delta_step);
       }},
      {"subsample", "", "1", "fraction of rows sampled per tree, (0, 1]",
       [](P* p, const std::string& v) {
         return ParseFloatIn("subsample", v, 0, 1, true, &p->subsample);
       }},
      {"colsample_bytree", "", "1", "fraction of features sampled per tree, (0, 1]",
       [](P* p, const std::string& v) {
         return ParseFloatIn("colsample_bytree", v, 0, 1, true, &p->colsample_bytree);
       }},
      {"colsample_bylevel", "", "1", "fraction of the tree's features sampled per level, (0, 1]",
       [](P* p, const std::string& v) {
         return ParseFloatIn("colsample_bylevel", v, 0, 1, true, &p->colsample_bylevel);
       }},
      {"colsample_bynode", "", "1", "fraction of the level's features sampled per node, (0, 1]",
       [](P* p, const std::string& v) {
         return ParseFloatIn("colsample_bynode", v, 0, 1, true, &p->colsample_bynode);
       }},
      {"lambda", "reg_lambda", "1", "L2 regularisation on leaf weights, [0, inf)",
       [](P* p, const std::string& v) {
         return ParseFloatIn("lambda", v, 0, kInf, false, &p->reg_lambda);
       }},
      {"alpha", "reg_alpha", "0", "L1 regularisation on leaf weights, [0, inf)",
       [](P* p, const std::string& v) {
         return ParseFloatIn("alpha", v, 0, kInf, false, &p->reg_alpha);
       }},
      {"max_bin", "", "256", "maximum number of histogram bins per feature, [2, 65536]",
       [](P* p, const std::string& v) { return ParseIntIn("max_bin", v, 2, 65536, &p->max_bin); }},
      {"grow_policy", "", "depthwise",
       "depthwise (level by level, max_depth) or lossguide (best leaf first, max_leaves)",
       [](P* p, const std::string& v) {
         std::string choice;
         Status s = ParseChoice("grow_policy", v, {"depthwise", "lossguide"}, &choice);
         if (s.ok()) {
           p->grow_policy = choice == "depthwise" ? GrowPolicy::kDepthWise : GrowPolicy::kLossGuide;
         }
         return s;
       }},
  };
  return kFields;
}

Status TreeParam::Validate() const {
  if (max_depth == 0 && max_leaves == 0) {
    return Status::InvalidInput(
        "parameter max_depth: 0 (unlimited) needs max_leaves > 0, or the tree is unbounded");
  }
  if (max_depth == 0 && grow_policy == GrowPolicy::kDepthWise) {
    return Status::InvalidInput("parameter max_depth: 0 (unlimited) needs grow_policy=lossguide");
  }
  return Status::Ok();
}

}  // namespace treering::booster
