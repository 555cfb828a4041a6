#include "booster/objective.h"

#include "objective_impl.h"

namespace treering::booster {

Result<std::unique_ptr<Objective>> Objective::Create(const ObjectiveConfig& config) {
  const std::string& n = config.name;
  if (n == "multi:softmax" || n == "multi:softprob") {
    if (config.num_class < 2) {
      return Status::InvalidInput("objective " + n + " needs num_class >= 2");
    }
    return MakeSoftmaxObjective(n, config.num_class);
  }
  if (n == "reg:squarederror" || n == "reg:logistic" || n == "binary:logistic" ||
      n == "binary:logitraw" || n == "count:poisson") {
    return MakeElementwiseObjective(config);
  }
  return Status::InvalidInput("unknown objective '" + n + "'");
}

}  // namespace treering::booster
