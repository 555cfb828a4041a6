#include "booster/learner_param.h"

namespace treering::booster {

// One name a line (helpers add objectives in parallel).
// clang-format off
const std::vector<std::string>& ObjectiveNames() {
  static const std::vector<std::string> kNames = {"reg:squarederror",
                                                  "reg:logistic",
                                                  "binary:logistic",
                                                  "binary:logitraw",
                                                  "multi:softmax",
                                                  "multi:softprob",
                                                  "count:poisson",
                                                  "reg:squaredlogerror",
                                                  "reg:pseudohubererror",
                                                  "reg:gamma",
                                                  "reg:tweedie",
                                                  "binary:hinge",
                                                  "survival:cox",
                                                  "survival:aft",
                                                  "reg:absoluteerror",
                                                  "rank:pairwise",
                                                  "rank:ndcg",
                                                  "rank:map"};
  return kNames;
}
// clang-format on

namespace {

// Keys XGBoost accepts that treering pins to one value: any other value is an error rather
// than a silently different algorithm.
ParamField<LearnerParam> PinnedChoice(std::string key, std::vector<std::string> allowed,
                                      const std::string& meaning) {
  std::string default_value = allowed.front();
  return {std::move(key), "", std::move(default_value), meaning,
          [allowed = std::move(allowed)](LearnerParam*, const std::string& v) {
            return ParseChoice(v, allowed).status();
          }};
}

}  // namespace

const ParamTable<LearnerParam>& LearnerParam::Table() {
  using P = LearnerParam;
  static const ParamTable<P> kTable({
      ChoiceField("objective", &P::objective, ObjectiveNames(), "").MarkSet(&P::objective_set),
      IntField("num_class", &P::num_class, 0, 65535,
               "outputs per row: the classes of multi:* (>= 2 there); with another objective, "
               "the gradients must come from a custom objective (C API, Python)")
          .MarkSet(&P::num_class_set),
      RealField("base_score", &P::base_score, {},
                "initial prediction of every row (a probability for logistic objectives); "
                "unset: 0.5, or for reg:absoluteerror the weighted median of the labels as "
                "XGBoost 1.7 estimates it")
          .MarkSet(&P::base_score_set),
      ListField("eval_metric", &P::eval_metrics, "(per objective)",
                "repeatable: rmse, rmsle, mae, mape, mphe, logloss, error, error@t, auc, aucpr, "
                "merror, mlogloss, poisson-nloglik, gamma-nloglik, gamma-deviance, "
                "tweedie-nloglik@p, cox-nloglik, aft-nloglik, interval-regression-accuracy, "
                "ndcg[@k][-], map[@k][-], pre@k"),
      BoolField("disable_default_eval_metric", &P::disable_default_eval_metric,
                "1: no metric unless eval_metric is given"),
      RealField("scale_pos_weight", &P::scale_pos_weight, {.lo = 0, .lo_open = true},
                "weight multiplier of label-1 rows (logistic)"),
      RealField("huber_slope", &P::huber_slope, {},
                "delta of reg:pseudohubererror and of the mphe metric (not 0)"),
      RealField("tweedie_variance_power", &P::tweedie_variance_power, {.lo = 1, .hi = 2},
                "variance power p of reg:tweedie (2 is refused)"),
      IntField("num_pairsample", &P::num_pairsample, 1, 1 << 20,
               "rank:*: partners drawn per document (lambda_rank_param)"),
      RealField("fix_list_weight", &P::fix_list_weight, {.lo = 0},
                "rank:*: scale each query group's pairs by this / group size; 0 = off"),
      ChoiceField("aft_loss_distribution", &P::aft_loss_distribution,
                  {"normal", "logistic", "extreme"},
                  "survival:aft: distribution of the noise of log time (also aft-nloglik's when "
                  "named in eval_metric)"),
      RealField("aft_loss_distribution_scale", &P::aft_loss_distribution_scale,
                {.lo = 0, .lo_open = true},
                "survival:aft: scale (sigma) of that noise (also aft-nloglik's when named in "
                "eval_metric)"),
      PinnedChoice("validate_parameters", {"1", "0"},
                   "accepted for XGBoost compatibility; unknown keys are always errors"),
  });
  return kTable;
}

Status LearnerParam::Validate() const {
  const bool multi = objective.rfind("multi:", 0) == 0;
  if (multi && num_class < 2) {
    return Status::InvalidKey("num_class", "parameter num_class: " + objective +
                                               " needs num_class >= 2, got " +
                                               std::to_string(num_class));
  }
  // num_class > 1 with another objective is XGBoost's custom multi-class set-up: the model
  // has num_class outputs and trains on the caller's gradients only (Objective::Create).
  return Status::Ok();
}

}  // namespace treering::booster
