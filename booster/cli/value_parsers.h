// Parsers for configuration values; on failure they return what was expected ("an integer in
// [0, 100000000]"), and the caller adds where and which key.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>

#include "base/status.h"

namespace treering::cli {

Result<std::int64_t> ParseIntIn(const std::string& value, std::int64_t lo, std::int64_t hi);
// A finite number >= 0 ("12.5", "3e2").
Result<double> ParseNonNegative(const std::string& value);
// 0/1 or true/false, as XGBoost's boolean parameters.
Result<bool> ParseBool(const std::string& value);
// The value itself if it is one of `allowed`.
Result<std::string> ParseOneOf(const std::string& value,
                               std::initializer_list<const char*> allowed);

}  // namespace treering::cli
