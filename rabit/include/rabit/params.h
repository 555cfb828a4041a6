// The parameters rabit::Init reads, for programs that check a configuration before Init (the
// `treering` CLI points a bad rabit key at its config line) and for the generated key table of
// docs/collectives.md. The table itself lives in rabit/src/engine_params.cc.
//
// Which keys are rabit's (the same rule in Init and in CheckParam):
// * rabit_*: rabit owns the prefix. An unknown rabit_* key is an error naming the nearest known
//   key ("unknown key 'rabit_timout' (did you mean 'rabit_timeout'?)"), never silently ignored.
// * mock: the fault-injection key (repeatable).
// * DMLC_* and dmlc_*: the dmlc launchers' shared namespace. The names rabit reads (the
//   environment names below, e.g. DMLC_NUM_ATTEMPT, which launchers append to a restarted
//   worker's argv) are applied; others (DMLC_ROLE, DMLC_WORKER_STOP_PROCESS_ON_ERROR that
//   XGBoost4J passes, ...) belong to other components and are ignored.
// * Init also takes the TREERING_* environment names as arguments; any other token is the
//   program's own and is ignored, so a program may pass its whole command line.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "base/param_table.h"  // ParamDoc
#include "base/status.h"

namespace rabit {

// Every key Init reads, in table order, with default and meaning (aliases: rows with alias_of).
const std::vector<treering::ParamDoc>& ParamDocs();

// (environment variable, key) pairs: Init reads these variables first, then its arguments.
const std::vector<std::pair<std::string, std::string>>& EnvironmentNames();

// True for the keys addressed to rabit: rabit_*, DMLC_*, dmlc_* and mock.
bool IsParamKey(const std::string& key);

// The check Init applies to one argument, without reading the environment: kInvalidInput with
// key() = `key` for a bad value or an unknown rabit_* key; OK for keys Init ignores.
treering::Status CheckParam(const std::string& key, const std::string& value);

}  // namespace rabit
