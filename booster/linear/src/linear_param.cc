#include "booster/linear/linear_param.h"

namespace treering::booster::linear {

using P = LinearParam;

const ParamTable<P>& LinearParam::Table() {
  static const ParamTable<P> kTable({
      ChoiceField("booster", &P::booster, {"gblinear"}, "the linear booster (docs/learner.md)"),
      ChoiceField("updater", &P::updater, {"shotgun", "coord_descent"},
                  "coordinate descent over the features: shotgun (XGBoost's default; "
                  "deterministic here, docs/learner.md) or coord_descent"),
      EnumField("feature_selector", &P::feature_selector,
                {{"cyclic", FeatureSelection::kCyclic},
                 {"shuffle", FeatureSelection::kShuffle},
                 {"thrifty", FeatureSelection::kThrifty},
                 {"greedy", FeatureSelection::kGreedy},
                 {"random", FeatureSelection::kRandom}},
                "order of the features in a round (shotgun: cyclic or shuffle)"),
      IntField("top_k", &P::top_k, 0, 1 << 30,
               "greedy and thrifty: features updated per group per round, 0 = all"),
      RealField("tolerance", &P::tolerance, {.lo = 0},
                "stop updating once a round's largest weight change is at most this"),
      RealField("learning_rate", &P::learning_rate, {.lo = 0}, "step shrinkage of each update")
          .Alias("eta"),
      RealField("reg_lambda", &P::reg_lambda, {.lo = 0},
                "L2 penalty on the weights, per unit of instance weight")
          .Alias("lambda"),
      RealField("reg_alpha", &P::reg_alpha, {.lo = 0},
                "L1 penalty on the weights, per unit of instance weight")
          .Alias("alpha"),
  });
  return kTable;
}

Status LinearParam::Validate() const {
  if (updater == "shotgun" && feature_selector != FeatureSelection::kCyclic &&
      feature_selector != FeatureSelection::kShuffle) {
    return Status::InvalidKey("feature_selector",
                              std::string("parameter feature_selector: ") +
                                  SelectorName(feature_selector) +
                                  " is not supported by updater shotgun (cyclic or shuffle; "
                                  "coord_descent takes all five)");
  }
  return Status::Ok();
}

const char* SelectorName(FeatureSelection s) {
  switch (s) {
    case FeatureSelection::kCyclic:
      return "cyclic";
    case FeatureSelection::kShuffle:
      return "shuffle";
    case FeatureSelection::kThrifty:
      return "thrifty";
    case FeatureSelection::kGreedy:
      return "greedy";
    case FeatureSelection::kRandom:
      return "random";
  }
  return "?";
}

}  // namespace treering::booster::linear
