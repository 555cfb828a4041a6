#include "booster/tree/dart/dart_param.h"

namespace treering::booster {

const ParamTable<DartParam>& DartParam::Table() {
  using P = DartParam;
  constexpr RealRange kFraction{.lo = 0, .hi = 1};
  static const ParamTable<P> kTable({
      ChoiceField("booster", &P::booster, {"gbtree", "dart"},
                  "dart: trees dropped at random while the next is fitted, weighted after "
                  "(rate_drop, skip_drop, ...)")
          .MarkSet(&P::booster_set),
      EnumField("sample_type", &P::sample_type,
                {{"uniform", DartSample::kUniform}, {"weighted", DartSample::kWeighted}},
                "dart: each tree dropped with rate_drop, or in proportion to its weight"),
      EnumField("normalize_type", &P::normalize_type,
                {{"tree", DartNormalize::kTree}, {"forest", DartNormalize::kForest}},
                "dart: the new tree weighs 1 / (k + eta) with k trees dropped, or 1 / (1 + eta)"),
      RealField("rate_drop", &P::rate_drop, kFraction, "dart: probability of dropping a tree"),
      BoolField("one_drop", &P::one_drop, "dart: 1: drop at least one tree each round"),
      RealField("skip_drop", &P::skip_drop, kFraction,
                "dart: probability of a round without dropout"),
  });
  return kTable;
}

}  // namespace treering::booster
