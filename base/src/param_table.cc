#include "base/param_table.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace treering {

std::string FormatNumber(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", v);
  return buf;
}

std::string RangeText(const RealRange& r) {
  const bool lo_open = r.lo_open || std::isinf(r.lo);
  return (lo_open ? "(" : "[") + FormatNumber(r.lo) + ", " + FormatNumber(r.hi) +
         (std::isinf(r.hi) ? ")" : "]");
}

std::string RangeText(long long lo, long long hi) {
  return "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
}

std::string ChoiceText(const std::vector<std::string>& allowed) {
  std::string text;
  for (const auto& a : allowed) text += (text.empty() ? "" : " | ") + a;
  return text;
}

std::string DescribeField(const std::string& meaning, const std::string& allowed) {
  if (meaning.empty()) return allowed;
  if (allowed.empty()) return meaning;
  return meaning + ", " + allowed;
}

std::string ParameterWording(const std::string& key, const std::string& value,
                             const std::string& allowed) {
  return "parameter " + key + ": bad value '" + value + "', allowed: " + allowed;
}

Result<long long> ParseInteger(const std::string& value, long long lo, long long hi) {
  const Status bad = Status::InvalidInput("an integer in " + RangeText(lo, hi));
  if (value.empty()) return bad;
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(value.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || v < lo || v > hi) return bad;
  return v;
}

Result<double> ParseReal(const std::string& value, const RealRange& range) {
  const Status bad = Status::InvalidInput("a number in " + RangeText(range));
  if (value.empty()) return bad;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(value.c_str(), &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(v)) return bad;
  if (v < range.lo || v > range.hi || (range.lo_open && v == range.lo)) return bad;
  return v;
}

Result<bool> ParseBoolean(const std::string& value) {
  if (value == "true") return true;
  if (value == "false") return false;
  auto n = ParseInteger(value, 0, 1);
  if (!n.ok()) return Status::InvalidInput("0 or 1 (or false/true)");
  return n.value() == 1;
}

Result<std::string> ParseChoice(const std::string& value, const std::vector<std::string>& allowed) {
  std::string list;
  for (const auto& a : allowed) {
    if (value == a) return value;
    list += (list.empty() ? "" : ", ") + a;
  }
  return Status::InvalidInput("one of " + list);
}

}  // namespace treering
