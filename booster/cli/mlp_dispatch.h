// booster=mlp in the `treering` CLI: which keys the neural learner takes, and the train / pred
// tasks handed to booster/mlp. The CLI's own keys keep their meaning; num_round and the tree
// keys are not used (epochs counts passes over the data).
#pragma once

#include <string>
#include <vector>

#include "booster/learner.h"
#include "cli_options.h"
#include "config_file.h"
#include "base/status.h"

namespace treering::cli {

// The value of the last `booster` entry ("gbtree" when none).
std::string BoosterOf(const std::vector<ConfigEntry>& entries);

// MLP keys with defaults and meanings (for --help and the "did you mean" hint).
const std::vector<booster::ParamDoc>& MlpParamDocs();

// The --help section for booster=mlp, one "key = default  meaning" line per key.
std::string MlpHelpText();

// task=train / task=pred for booster=mlp (task=dump is a user error).
Status RunMlpTask(const CliOptions& options);

}  // namespace treering::cli
