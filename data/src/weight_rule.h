// XGBoost's rule for LibSVM weights: every row of a data set carries label:weight, or none
// does. treering used to give unweighted rows weight 1 (XGBoost silently gives them 0); a
// mixed file is now an error, which also catches rows that lost their label ("3:1 4:2" reads
// as label 3 with weight 1).
#pragma once

#include <vector>

#include "base/status.h"
#include "chunk_plan.h"
#include "csr_cursor.h"
#include "input_files.h"

namespace treering::data::detail {

// kInvalidInput "FILE:LINE:COL: ..." at the part's first row whose weight-or-not differs from
// the part's first row. Checks this part only: Load has no Comm, so agreement across the parts
// of a distributed job is the caller's (the train driver's allreduce).
Status CheckWeightsAllOrNone(const InputSpec& input, const std::vector<Chunk>& chunks,
                             const std::vector<CsrCursor>& cursors);

}  // namespace treering::data::detail
