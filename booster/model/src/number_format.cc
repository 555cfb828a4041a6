#include "booster/number_format.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace treering::booster {

std::string FloatToXgbJson(float value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value < 0 ? "-Infinity" : "Infinity";
  // std::to_chars(scientific) without a precision gives the shortest round-trip digits, the
  // same digits as XGBoost's Ryu-based writer; only the exponent spelling differs
  // ("5e-01" here, "5E-1" there).
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::scientific);
  std::string text(buf, res.ptr);
  const auto e = text.find('e');
  std::string mantissa = text.substr(0, e);
  const int exponent = std::atoi(text.c_str() + e + 1);
  return mantissa + "E" + std::to_string(exponent);
}

std::string FloatToG9(float value) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.9g", static_cast<double>(value));
  return buf;
}

std::string PredictionLines(const std::vector<float>& values) {
  std::string out;
  out.reserve(values.size() * 12);
  char buf[32];
  for (const float v : values) {
    const int n = std::snprintf(buf, sizeof(buf), "%.9g\n", static_cast<double>(v));
    out.append(buf, static_cast<std::size_t>(n));
  }
  return out;
}

}  // namespace treering::booster
