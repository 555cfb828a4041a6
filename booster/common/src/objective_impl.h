// Factories of the concrete objectives (private to booster/common).
#pragma once

#include <memory>
#include <string>

#include "booster/objective.h"

namespace treering::booster {

std::unique_ptr<Objective> MakeElementwiseObjective(const ObjectiveConfig& config);
std::unique_ptr<Objective> MakeSoftmaxObjective(const std::string& name, int num_class);

}  // namespace treering::booster
