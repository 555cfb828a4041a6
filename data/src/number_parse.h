// Number parsing for the text loaders, the hot loop of every LibSVM file. Every function
// parses from `p` up to (not including) `end`, never reads past `end`, and returns the first
// unconsumed position, or nullptr when no number of the required form starts at `p`. None of
// them skips whitespace.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>

namespace treering::data::detail {

inline bool IsDigit(char c) { return static_cast<unsigned>(c - '0') < 10u; }

// Non-negative decimal integer without sign, at most `max`. nullptr on no digit or overflow.
inline const char* ParseUnsigned(const char* p, const char* end, std::uint64_t max,
                                 std::uint64_t* out) {
  // Up to 19 digits cannot overflow 64 bits, so the loop needs no per-digit range check.
  const char* limit = end - p > 19 ? p + 19 : end;
  const char* start = p;
  std::uint64_t v = 0;
  while (p != limit && IsDigit(*p)) v = v * 10 + static_cast<unsigned>(*p++ - '0');
  if (p == start) return nullptr;
  if (p == limit && p != end && IsDigit(*p)) {  // a 20th digit: finish with overflow checks
    for (; p != end && IsDigit(*p); ++p) {
      const unsigned digit = static_cast<unsigned>(*p - '0');
      if (v > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) return nullptr;
      v = v * 10 + digit;
    }
  }
  if (v > max) return nullptr;
  *out = v;
  return p;
}

enum class FloatError { kNone, kSyntax, kNonFinite, kOutOfRange };

// The general case: std::from_chars, which rounds correctly to the nearest float (GCC >= 12).
// Underflow (a non-zero value below the smallest float) becomes a signed zero, as strtof
// gives; overflow is kOutOfRange.
const char* ParseFloatSlow(const char* p, const char* end, float* out, FloatError* error);

// Clinger's fast path for the common "[-]digits[.digits]" form with at most 24 bits of
// mantissa digits and at most 10 decimals: both the mantissa and 10^decimals are exact floats,
// so one IEEE division rounds correctly and gives exactly what from_chars gives. Returns
// nullptr when the text needs the general case.
inline const char* ParseFloatFast(const char* p, const char* end, float* out) {
  static constexpr float kPow10[] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f,
                                     1e6f, 1e7f, 1e8f, 1e9f, 1e10f};
  const bool negative = p != end && *p == '-';
  const char* q = p + negative;
  std::uint64_t mantissa = 0;
  const char* digits = q;
  while (q != end && IsDigit(*q)) mantissa = mantissa * 10 + static_cast<unsigned>(*q++ - '0');
  int integer_digits = static_cast<int>(q - digits);
  int decimals = 0;
  if (q != end && *q == '.') {
    const char* fraction = ++q;
    while (q != end && IsDigit(*q)) mantissa = mantissa * 10 + static_cast<unsigned>(*q++ - '0');
    decimals = static_cast<int>(q - fraction);
  }
  const bool simple = integer_digits + decimals > 0 && integer_digits + decimals <= 19 &&
                      decimals <= 10 && mantissa <= (1u << 24) &&
                      (q == end || (*q != 'e' && *q != 'E'));
  if (!simple) return nullptr;
  const float magnitude = static_cast<float>(mantissa) / kPow10[decimals];
  *out = negative ? -magnitude : magnitude;
  return q;
}

// A finite float in decimal or scientific notation, with an optional leading '+' (LibSVM
// labels are often written "+1"). Rejects nan, inf, hex and values beyond the float range.
inline const char* ParseFiniteFloat(const char* p, const char* end, float* out, FloatError* error) {
  if (p != end && *p == '+' && p + 1 != end && p[1] != '-') ++p;
  if (const char* next = ParseFloatFast(p, end, out)) return next;
  return ParseFloatSlow(p, end, out, error);
}

}  // namespace treering::data::detail
