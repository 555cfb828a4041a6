// The body of `treering --help`, generated from the key tables (CLI keys and
// the learners' tables), so it cannot drift from what the parser accepts.
#pragma once

#include <string>
#include <vector>

#include "booster/learner.h"

namespace treering::cli {

std::string HelpText(const std::vector<booster::ParamDoc>& cli_docs,
                     const std::vector<booster::ParamDoc>& learner_docs);

}  // namespace treering::cli
