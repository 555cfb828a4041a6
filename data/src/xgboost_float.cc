#include "xgboost_float.h"

#include <cstdint>

namespace treering::data::detail {
namespace {

constexpr int kMaxDigits = 19;  // dmlc ignores fraction digits beyond this many
constexpr unsigned kMaxExponent = 38;

bool IsDigitChar(char c) { return c >= '0' && c <= '9'; }

// dmlc-core's order of operations, types included, as python3-xgboost 1.7.4 on Debian 12
// does it (matched bit for bit by tests/data/xgboost_peer_test.cc): the integer part
// accumulates in double and is rounded to float, the fraction is a double quotient rounded to
// float and added in float, the exponent scales in float.
float ScaleByExponent(float value, const char* p, const char* end) {
  const bool negative = *p == '-';
  if (*p == '-' || *p == '+') ++p;
  unsigned exponent = 0;
  for (; p != end && IsDigitChar(*p); ++p) exponent = exponent * 10 + (*p - '0');
  if (exponent > kMaxExponent) exponent = kMaxExponent;
  float scale = 1.0f;
  while (exponent >= 8) {
    scale *= 1E8;  // double product rounded to float, as in dmlc
    exponent -= 8;
  }
  while (exponent > 0) {
    scale *= 10.0;
    exponent -= 1;
  }
  return negative ? value / scale : value * scale;
}

}  // namespace

float XGBoostFloat(const char* p, const char* end) {
  const bool negative = *p == '-';
  if (*p == '-' || *p == '+') ++p;
  double integer = 0;
  for (; p != end && IsDigitChar(*p); ++p) integer = integer * 10.0 + (*p - '0');
  float value = static_cast<float>(integer);
  if (p != end && *p == '.') {
    std::uint64_t power = 1;
    std::uint64_t fraction = 0;
    int digits = 0;
    for (++p; p != end && IsDigitChar(*p); ++p, ++digits) {
      if (digits < kMaxDigits) {
        fraction = fraction * 10 + static_cast<unsigned>(*p - '0');
        power *= 10;
      }
    }
    value += static_cast<float>(static_cast<double>(fraction) / static_cast<double>(power));
  }
  if (p != end && (*p == 'e' || *p == 'E')) value = ScaleByExponent(value, p + 1, end);
  return negative ? -value : value;
}

}  // namespace treering::data::detail
