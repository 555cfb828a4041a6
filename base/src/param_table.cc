#include "base/param_table.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace treering {
namespace {

std::string RangeText(double lo, double hi, bool lo_open) {
  std::ostringstream os;
  os << (lo_open ? "(" : "[") << lo << ", ";
  if (std::isinf(hi)) {
    os << "inf)";
  } else {
    os << hi << "]";
  }
  return os.str();
}

Status BadValue(const char* key, const std::string& value, const std::string& allowed) {
  return Status::InvalidInput("parameter " + std::string(key) + ": bad value '" + value +
                              "', allowed: " + allowed);
}

}  // namespace

Status ParseDoubleIn(const char* key, const std::string& value, double lo, double hi,
                     bool lo_open, double* out) {
  const std::string range = RangeText(lo, hi, lo_open);
  if (value.empty()) return BadValue(key, value, range);
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(value.c_str(), &end);
  if (errno != 0 || *end != '\0' || std::isnan(v)) return BadValue(key, value, range);
  if (v < lo || v > hi || (lo_open && v == lo)) return BadValue(key, value, range);
  *out = v;
  return Status::Ok();
}

Status ParseFloatIn(const char* key, const std::string& value, double lo, double hi,
                    bool lo_open, float* out) {
  double v = 0;
  Status s = ParseDoubleIn(key, value, lo, hi, lo_open, &v);
  if (s.ok()) *out = static_cast<float>(v);
  return s;
}

Status ParseIntIn(const char* key, const std::string& value, long long lo, long long hi,
                  int* out) {
  std::ostringstream range;
  range << "integer in [" << lo << ", " << hi << "]";
  if (value.empty()) return BadValue(key, value, range.str());
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(value.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || v < lo || v > hi) return BadValue(key, value, range.str());
  *out = static_cast<int>(v);
  return Status::Ok();
}

Status ParseChoice(const char* key, const std::string& value,
                   const std::vector<std::string>& allowed, std::string* out) {
  for (const auto& a : allowed) {
    if (value == a) {
      *out = value;
      return Status::Ok();
    }
  }
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
  return BadValue(key, value, "one of " + list);
}

}  // namespace treering
