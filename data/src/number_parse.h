// Number parsing for the text loaders: plain decimal integers by hand (the common case for
// feature indices and qids, and the hot loop of every LibSVM file) and floats with
// std::from_chars, which rounds correctly to the nearest float in GCC >= 12.
// Every function parses from `p` up to (not including) `end`, never reads past `end`, and
// returns the first unconsumed position, or nullptr when no number of the required form starts
// at `p`. None of them skips whitespace.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>

namespace treering::data::detail {

// Non-negative decimal integer without sign, at most `max`. nullptr on no digit or overflow.
inline const char* ParseUnsigned(const char* p, const char* end, std::uint64_t max,
                                 std::uint64_t* out) {
  const char* start = p;
  std::uint64_t v = 0;
  while (p != end && static_cast<unsigned>(*p - '0') < 10u) {
    const unsigned digit = static_cast<unsigned>(*p - '0');
    if (v > (max - digit) / 10) return nullptr;  // v * 10 + digit would exceed max
    v = v * 10 + digit;
    ++p;
  }
  if (p == start) return nullptr;
  *out = v;
  return p;
}

// A finite float in decimal or scientific notation, with an optional leading '+' (LibSVM
// labels are often written "+1"). Rejects nan, inf, hex and values outside the float range.
enum class FloatError { kNone, kSyntax, kNonFinite, kOutOfRange };

inline const char* ParseFiniteFloat(const char* p, const char* end, float* out,
                                    FloatError* error) {
  const char* first = p;
  if (first != end && *first == '+' && first + 1 != end && first[1] != '-') ++first;
  const auto [next, ec] = std::from_chars(first, end, *out, std::chars_format::general);
  if (ec == std::errc::result_out_of_range) {
    *error = FloatError::kOutOfRange;
    return nullptr;
  }
  if (ec != std::errc()) {
    *error = FloatError::kSyntax;
    return nullptr;
  }
  if (!std::isfinite(*out)) {
    *error = FloatError::kNonFinite;
    return nullptr;
  }
  *error = FloatError::kNone;
  return next;
}

}  // namespace treering::data::detail
