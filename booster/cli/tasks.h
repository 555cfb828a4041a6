// The four `treering` tasks. Each returns a Status: kInvalidInput for the user's mistakes
// (exit code 2), anything else for runtime failures (exit code 1). rabit::Init has been
// called; only rank 0 prints metric lines and writes files.
#pragma once

#include "base/status.h"
#include "cli_options.h"

namespace treering::cli {

Status RunTrain(const CliOptions& options);
Status RunPredict(const CliOptions& options);
Status RunDump(const CliOptions& options);
Status RunImportance(const CliOptions& options);

}  // namespace treering::cli
