#include "value_parsers.h"

#include <charconv>
#include <cmath>

namespace treering::cli {

Result<std::int64_t> ParseIntIn(const std::string& value, std::int64_t lo, std::int64_t hi) {
  std::int64_t v = 0;
  const auto res = std::from_chars(value.data(), value.data() + value.size(), v);
  const bool whole = res.ec == std::errc() && res.ptr == value.data() + value.size();
  if (!whole || v < lo || v > hi) {
    return Status::InvalidInput("expected an integer in [" + std::to_string(lo) + ", " +
                                std::to_string(hi) + "]");
  }
  return v;
}

Result<double> ParseNonNegative(const std::string& value) {
  double v = 0;
  const auto res = std::from_chars(value.data(), value.data() + value.size(), v);
  const bool whole = res.ec == std::errc() && res.ptr == value.data() + value.size();
  if (!whole || !std::isfinite(v) || v < 0) return Status::InvalidInput("expected a number >= 0");
  return v;
}

Result<bool> ParseBool(const std::string& value) {
  if (value == "1" || value == "true") return true;
  if (value == "0" || value == "false") return false;
  return Status::InvalidInput("expected 0 or 1 (or false/true)");
}

Result<std::string> ParseOneOf(const std::string& value,
                               std::initializer_list<const char*> allowed) {
  std::string list;
  for (const char* a : allowed) {
    if (value == a) return value;
    list += (list.empty() ? "" : ", ") + std::string(a);
  }
  return Status::InvalidInput("expected one of " + list);
}

}  // namespace treering::cli
