// Character classes and token helpers shared by the LibSVM and CSV parsers.
#pragma once

#include <cstring>
#include <string>
#include <string_view>

namespace treering::data::detail {

// Separators inside a line. '\r' is one so CRLF files parse like LF files.
inline bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

inline const char* SkipBlanks(const char* p, const char* end) {
  while (p != end && IsBlank(*p)) ++p;
  return p;
}

inline const char* LineEnd(const char* p, const char* end) {
  const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
  return nl ? static_cast<const char*>(nl) : end;
}

// The token at `p` (up to a blank, '#' or the line end) made printable for an error message:
// control bytes as \xNN, cut after 40 characters.
std::string QuoteToken(const char* p, const char* end, const char* extra_stops = "#");

}  // namespace treering::data::detail
