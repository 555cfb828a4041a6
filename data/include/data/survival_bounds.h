// survival:aft's label bounds from a side file, as XGBoost's FILE.group gives query groups:
// FILE.bounds next to a one-file URI holds one line per row, "LOWER UPPER" (blank, tab or comma
// between), the row's survival time interval. UPPER may be inf (right-censored), LOWER 0
// (left-censored); equal ends are an observed time. docs/data.md, "Survival bounds".
#pragma once

#include <string>

#include "base/status.h"
#include "data/dmatrix.h"
#include "rabit/comm.h"

namespace treering::data {

// PATH.bounds when `uri` names one local file PATH (options after '?' aside) and PATH.bounds
// exists; "" otherwise (lists, globs and http:// URIs have none).
std::string BoundsFilePath(const std::string& uri);

// Sets matrix->label_lower_bound / label_upper_bound from PATH.bounds, when it exists, for
// the rows this rank holds (rows keep their global order across ranks). With `sharded`, every
// rank of `comm` calls it for the same URI. `key` names the config key. Errors name
// PATH:LINE: not two numbers, NaN, a negative bound, lower > upper, or a line count that is
// not the data's row count. Leaves the matrix as it was on error.
Status AttachSurvivalBounds(const std::string& key, const std::string& uri, bool sharded,
                            rabit::Comm& comm, DMatrix* matrix);

}  // namespace treering::data
