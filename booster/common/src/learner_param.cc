#include "booster/learner_param.h"

namespace treering::booster {

const std::vector<std::string>& ObjectiveNames() {
  static const std::vector<std::string> kNames = {
      "reg:squarederror", "reg:logistic",   "binary:logistic", "binary:logitraw",
      "multi:softmax",    "multi:softprob", "count:poisson"};
  return kNames;
}

namespace {

// Keys XGBoost accepts that treering pins to one value: any other value is an error rather
// than a silently different algorithm.
Status PinnedChoice(const char* key, const std::string& v, const std::vector<std::string>& ok) {
  std::string ignored;
  return ParseChoice(key, v, ok, &ignored);
}

}  // namespace

const std::vector<ParamField<LearnerParam>>& LearnerParam::Fields() {
  using P = LearnerParam;
  static const std::vector<ParamField<P>> kFields = {
      {"objective", "", "reg:squarederror",
       "reg:squarederror, reg:logistic, binary:logistic, binary:logitraw, multi:softmax, "
       "multi:softprob, count:poisson",
       [](P* p, const std::string& v) {
         p->objective_set = true;
         return ParseChoice("objective", v, ObjectiveNames(), &p->objective);
       }},
      {"num_class", "", "0", "number of classes for multi:*, [0, 65535]",
       [](P* p, const std::string& v) {
         p->num_class_set = true;
         return ParseIntIn("num_class", v, 0, 65535, &p->num_class);
       }},
      {"base_score", "", "0.5",
       "initial prediction of every row (a probability for logistic objectives), (-inf, inf)",
       [](P* p, const std::string& v) {
         p->base_score_set = true;
         return ParseFloatIn("base_score", v, -kInf, kInf, false, &p->base_score);
       }},
      {"eval_metric", "", "(per objective)",
       "repeatable: rmse, mae, logloss, error, error@t, auc, merror, mlogloss, poisson-nloglik",
       [](P* p, const std::string& v) {
         p->eval_metrics.push_back(v);
         return Status::Ok();
       }},
      {"disable_default_eval_metric", "", "0", "1: no metric unless eval_metric is given",
       [](P* p, const std::string& v) {
         int flag = 0;
         Status s = ParseIntIn("disable_default_eval_metric", v, 0, 1, &flag);
         p->disable_default_eval_metric = flag == 1;
         return s;
       }},
      {"scale_pos_weight", "", "1", "weight multiplier of label-1 rows (logistic), (0, inf)",
       [](P* p, const std::string& v) {
         return ParseFloatIn("scale_pos_weight", v, 0, kInf, true, &p->scale_pos_weight);
       }},
      {"nthread", "", "0", "threads for training and prediction, 0 = all cores, [0, 1024]",
       [](P* p, const std::string& v) { return ParseIntIn("nthread", v, 0, 1024, &p->nthread); }},
      {"seed", "random_state", "0", "random seed (row/column sampling), integer",
       [](P* p, const std::string& v) {
         return ParseIntIn("seed", v, -2147483648LL, 2147483647LL, &p->seed);
       }},
      {"verbosity", "", "1", "0 silent .. 3 debug, [0, 3]",
       [](P* p, const std::string& v) { return ParseIntIn("verbosity", v, 0, 3, &p->verbosity); }},
      {"booster", "", "gbtree", "gbtree (the only booster treering implements)",
       [](P*, const std::string& v) { return PinnedChoice("booster", v, {"gbtree"}); }},
      {"tree_method", "", "hist", "hist; auto is accepted and means hist",
       [](P*, const std::string& v) { return PinnedChoice("tree_method", v, {"hist", "auto"}); }},
      {"validate_parameters", "", "1", "accepted for XGBoost compatibility; always on",
       [](P*, const std::string& v) { return PinnedChoice("validate_parameters", v, {"0", "1"}); }},
  };
  return kFields;
}

Status LearnerParam::Validate() const {
  const bool multi = objective.rfind("multi:", 0) == 0;
  if (multi && num_class < 2) {
    return Status::InvalidInput("parameter num_class: " + objective +
                                " needs num_class >= 2, got " + std::to_string(num_class));
  }
  if (!multi && num_class > 1) {
    return Status::InvalidInput("parameter num_class: " + std::to_string(num_class) +
                                " classes need objective multi:softmax or multi:softprob");
  }
  return Status::Ok();
}

}  // namespace treering::booster
