#include "objective_block.h"

#include "booster/number_format.h"

namespace treering::booster {

ObjectiveBlock DefaultObjectiveBlock(const std::string& objective) {
  // Observed with python3-xgboost 1.7.4 (Booster.save_raw("json")) for each objective.
  static const std::map<std::string, ObjectiveBlock> kBlocks = {
      {"reg:squarederror", {"reg_loss_param", {{"scale_pos_weight", "1"}}}},
      {"reg:linear", {"reg_loss_param", {{"scale_pos_weight", "1"}}}},
      {"reg:squaredlogerror", {"reg_loss_param", {{"scale_pos_weight", "1"}}}},
      {"reg:logistic", {"reg_loss_param", {{"scale_pos_weight", "1"}}}},
      {"binary:logistic", {"reg_loss_param", {{"scale_pos_weight", "1"}}}},
      {"binary:logitraw", {"reg_loss_param", {{"scale_pos_weight", "1"}}}},
      {"multi:softmax", {"softmax_multiclass_param", {{"num_class", "0"}}}},
      {"multi:softprob", {"softmax_multiclass_param", {{"num_class", "0"}}}},
      {"count:poisson", {"poisson_regression_param", {{"max_delta_step", "0.699999988"}}}},
      {"reg:pseudohubererror", {"pseudo_huber_param", {{"huber_slope", "1"}}}},
      {"reg:tweedie", {"tweedie_regression_param", {{"tweedie_variance_power", "1.5"}}}},
      {"survival:aft",
       {"aft_loss_param",
        {{"aft_loss_distribution", "normal"}, {"aft_loss_distribution_scale", "1"}}}},
      {"rank:pairwise", {"lambda_rank_param", {{"num_pairsample", "1"}, {"fix_list_weight", "0"}}}},
      {"rank:ndcg", {"lambda_rank_param", {{"num_pairsample", "1"}, {"fix_list_weight", "0"}}}},
      {"rank:map", {"lambda_rank_param", {{"num_pairsample", "1"}, {"fix_list_weight", "0"}}}},
      // XGBoost 2.x (not 1.7): the alphas as a JSON list in a string.
      {"reg:quantileerror", {"quantile_loss_param", {{"quantile_alpha", "[5E-1]"}}}},
  };
  const auto it = kBlocks.find(objective);
  return it == kBlocks.end() ? ObjectiveBlock{} : it->second;
}

ObjectiveBlock ObjectiveBlockFor(const GBTreeModel& model) {
  ObjectiveBlock block = DefaultObjectiveBlock(model.objective);
  if (!model.objective_param_block.empty() && model.objective_param_block != block.name) {
    block = ObjectiveBlock{model.objective_param_block, {}};
  }
  if (block.name.empty()) return block;
  for (const auto& [key, value] : model.objective_params) block.params[key] = value;
  if (block.name == "reg_loss_param") {
    block.params["scale_pos_weight"] = FloatToG9(model.scale_pos_weight);
  } else if (block.name == "softmax_multiclass_param") {
    block.params["num_class"] = std::to_string(model.num_class);
  }
  return block;
}

}  // namespace treering::booster
