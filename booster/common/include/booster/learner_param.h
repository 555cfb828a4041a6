// LearnerParam: learner-level parameters (objective, metrics), XGBoost 1.7 names. Threads, seed
// and verbosity are the Context's keys (base/context.h), which the learner receives beside these.
#pragma once

#include <string>
#include <vector>

#include "base/param_table.h"

namespace treering::booster {

struct LearnerParam {
  std::string objective = "reg:squarederror";
  bool objective_set = false;
  int num_class = 0;
  bool num_class_set = false;
  float base_score = 0.5f;  // user-space value (a probability for logistic objectives)
  bool base_score_set = false;
  std::vector<std::string> eval_metrics;  // repeatable key, config order; empty = default
  bool disable_default_eval_metric = false;
  float scale_pos_weight = 1.0f;
  float huber_slope = 1.0f;             // reg:pseudohubererror and mphe
  float tweedie_variance_power = 1.5f;  // reg:tweedie, [1, 2)
  int num_pairsample = 1;               // rank:*
  float fix_list_weight = 0.0f;         // rank:*
  // survival:aft, and aft-nloglik when named in eval_metric (XGBoost's aft_loss_param).
  std::string aft_loss_distribution = "normal";
  float aft_loss_distribution_scale = 1.0f;

  // Every key with its default, range and meaning (base/param_table.h).
  static const ParamTable<LearnerParam>& Table();
  Status Validate() const;
};

// The objective names treering implements (same spelling as XGBoost 1.7).
const std::vector<std::string>& ObjectiveNames();

}  // namespace treering::booster
