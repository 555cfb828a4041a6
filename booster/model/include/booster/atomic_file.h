// Whole-file I/O for model, prediction and dump files. Writes are atomic: the bytes go to a
// temporary file in the destination's directory, are fsync'ed, then renamed over the target
// (and the directory is fsync'ed), so a crash or error never leaves a half-written file.
#pragma once

#include <string>
#include <string_view>

#include "base/status.h"

namespace treering::booster {

// kIoError naming the path on any failure; the temporary file is removed on failure.
Status WriteFileAtomic(const std::string& path, std::string_view contents);

// kInvalidInput when the file does not exist or cannot be opened (a wrong path is a user error),
// kIoError when reading fails midway.
Result<std::string> ReadWholeFile(const std::string& path);

}  // namespace treering::booster
