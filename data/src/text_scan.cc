#include "text_scan.h"

#include <cstdio>

namespace treering::data::detail {

std::string QuoteToken(const char* p, const char* end, const char* extra_stops) {
  constexpr std::size_t kMaxShown = 40;
  std::string shown = "'";
  std::size_t count = 0;
  for (; p != end && !IsBlank(*p); ++p) {
    if (*p != '\0' && std::strchr(extra_stops, *p) != nullptr) break;  // strchr finds NUL too
    if (++count > kMaxShown) {
      shown += "...";
      break;
    }
    const unsigned char c = static_cast<unsigned char>(*p);
    if (c < 0x20 || c == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
      shown += escaped;
    } else {
      shown += static_cast<char>(c);
    }
  }
  return shown + "'";
}

}  // namespace treering::data::detail
