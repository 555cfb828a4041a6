// Turning "row N of this worker's rows", as the learner reports a bad value, into the file and
// line users can open. Only the one reported error pays for the scan.
#pragma once

#include <cstdint>
#include <string>

#include "base/status.h"

namespace treering::cli {

// "path:LINE" of the row-th row (0-based) of part `part` of `nparts` of a single local LibSVM
// or CSV file (data::Load's split: rows whose line starts in the part's byte range; blank and
// comment-only lines hold no row); "" for lists, globs, http:// files or a row not found.
std::string RowLocation(const std::string& uri, int part, int nparts, std::uint64_t row);

// A learner's error that names "row N (0-based, this worker's rows)" with that phrase replaced
// by the row's "path:LINE (row N)"; any other status unchanged.
Status WithRowLocation(const Status& st, const std::string& uri, int part, int nparts);

}  // namespace treering::cli
