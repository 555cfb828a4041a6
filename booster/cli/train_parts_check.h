// Checks of the training data that need every rank's part (data::Load sees one part and has no
// communicator): zero rows in the whole job, and parts that disagree on label:weight (each
// part is all-or-none on its own, docs/data.md).
#pragma once

#include "base/status.h"
#include "cli_options.h"
#include "data/dmatrix.h"

namespace treering::cli {

// A collective (one allreduce): every rank calls it after loading its part and gets the same
// answer, kInvalidInput naming data = URI. One empty part among several is fine: rank 0 says
// so at verbosity 2.
Status CheckTrainingParts(const CliOptions& options, const data::DMatrix& part);

}  // namespace treering::cli
