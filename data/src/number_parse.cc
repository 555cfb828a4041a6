#include "number_parse.h"

namespace treering::data::detail {

const char* ParseFloatSlow(const char* p, const char* end, float* out, FloatError* error) {
  *error = FloatError::kNone;
  auto [next, ec] = std::from_chars(p, end, *out, std::chars_format::general);
  if (ec == std::errc::result_out_of_range) {
    // from_chars reports underflow and overflow alike; the double tells them apart.
    double wide = 0;
    const auto [wide_next, wide_ec] = std::from_chars(p, end, wide, std::chars_format::general);
    if (wide_ec != std::errc() || std::fabs(wide) >= 1) {
      *error = FloatError::kOutOfRange;
      return nullptr;
    }
    *out = std::signbit(wide) ? -0.0f : 0.0f;
    next = wide_next;
  } else if (ec != std::errc()) {
    *error = FloatError::kSyntax;
    return nullptr;
  }
  if (!std::isfinite(*out)) {
    *error = FloatError::kNonFinite;
    return nullptr;
  }
  return next;
}

}  // namespace treering::data::detail
