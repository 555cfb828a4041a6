// The `treering` configuration keys: the CLI's own table (key, default, meaning, parser), the
// routing of every other key (learner / rabit), and the checks that make a bad config a
// one-line user error: "train.conf:7: unknown key 'max_dept' (did you mean 'max_depth'?)".
#pragma once

#include <set>
#include <string>
#include <vector>

#include "base/status.h"
#include "booster/learner.h"  // ParamDoc
#include "cli_options.h"
#include "config_file.h"

namespace treering::cli {

// The CLI's own keys with defaults and meanings (for --help and docs/cli.md).
const std::vector<booster::ParamDoc>& CliParamDocs();

// Applies entries in order (later single-valued keys win; eval[NAME] sets keep their first
// position). `learner_docs` is the booster's LearnerParamDocs(). Every key is checked: the CLI's
// own, the learner's, and rabit's (rabit_* keys must be ones rabit knows; rabit/params.h has the
// rule). Errors are kInvalidInput starting with the origin ("train.conf:7: ..."), with key() set.
// `other_learner_keys` are the keys of the learners not chosen (OtherLearnersKeys): they go
// to CliOptions::unused_keys instead of failing as unknown.
Result<CliOptions> BuildOptions(const std::vector<ConfigEntry>& entries,
                                const std::vector<booster::ParamDoc>& learner_docs,
                                const std::set<std::string>& other_learner_keys = {});

}  // namespace treering::cli
