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
  // reg:quantileerror's alphas (XGBoost 2.x): one model output per alpha, each in (0, 1).
  std::vector<float> quantile_alpha{0.5f};
  bool quantile_alpha_set = false;
  // XGBoost 1.7's num_target: outputs of a multi-target model; 1 = taken from the training
  // labels' columns (a custom objective must say it, as in 1.7).
  int num_target = 1;

  // Every key with its default, range and meaning (base/param_table.h).
  static const ParamTable<LearnerParam>& Table();
  Status Validate() const;
};

// The objective names treering implements (same spelling as XGBoost 1.7).
const std::vector<std::string>& ObjectiveNames();

// quantile_alpha's value: "0.5", "[0.1,0.5,0.9]" or Python's str() of a list or tuple (commas
// or spaces between numbers); each in (0, 1), at least one.
Result<std::vector<float>> ParseQuantileAlpha(const std::string& value);

}  // namespace treering::booster
