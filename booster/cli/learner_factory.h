// The one place that knows which learners there are. `booster` names one (gbtree: XGBoost's
// hist trees, booster/tree; gblinear: its linear booster, booster/linear; mlp: the neural
// sync-SGD learner, booster/mlp); the factory creates it and lists its keys. Everything else in
// the CLI drives a booster::Learner and never asks which one it is.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "base/context.h"
#include "base/status.h"
#include "booster/learner.h"
#include "cli_options.h"
#include "config_file.h"
#include "rabit/comm.h"

namespace treering::cli {

inline constexpr const char* kDefaultBooster = "gbtree";

// The value of the last `booster` entry (kDefaultBooster when none).
std::string BoosterOf(const std::vector<ConfigEntry>& entries);

// The keys `booster` takes, with defaults and meanings (for --help and the "did you mean"
// hint). An unknown name gets the default booster's: the booster key's own check rejects it.
const std::vector<booster::ParamDoc>& LearnerParamDocs(const std::string& booster);

// The keys of XGBoost's other boosters (gbtree/dart and gblinear) that `booster` does not
// take. XGBoost 1.7 accepts them with a warning that they "are not used" (scripts and
// grid searches that switch booster keep max_depth and the like); the CLI and the C API do too.
std::set<std::string> OtherLearnersKeys(const std::string& booster);

// XGBoost's warning for such keys ("" when `keys` is empty).
std::string UnusedKeysWarning(const std::vector<std::string>& keys);

// The --help sections of the boosters other than the default one (whose keys HelpText lists).
std::string OtherLearnersHelpText();

// params: the learner keys in config order. ctx: the job's threads, seed and verbosity, made
// once by BuildOptions; comm: the collective. They come side by side because base (Context)
// sits below rabit (Comm) and cannot hold it (docs/driver.md). Errors name the key, not where
// it was set (CreateLearnerFromConfig adds that).
Result<std::unique_ptr<booster::Learner>> CreateLearner(const std::string& booster,
                                                        const KeyValues& params, const Context& ctx,
                                                        rabit::Comm* comm);

}  // namespace treering::cli
