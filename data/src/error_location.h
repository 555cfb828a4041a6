// Turning a byte offset in a file into the "FILE:LINE:COL" users see. Only the one reported
// error pays for it, so the parsing threads never count lines.
#pragma once

#include <cstdint>
#include <string>

#include "base/status.h"

namespace treering::data::detail {

// "path:LINE:COL" with a 1-based line and a 1-based byte column of `offset`.
// `version`: an http:// file's ETag (opened_file.h); empty for a local file.
Result<std::string> LocateOffset(const std::string& path, std::uint64_t offset,
                                 const std::string& version = "");

}  // namespace treering::data::detail
