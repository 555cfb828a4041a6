// The error path of the LibSVM parser: turns the cheap LineError of the hot loop into the
// message the user sees. Runs once per failed load, so clarity beats speed here.
#include <cctype>
#include <cstring>
#include <string>

#include "data/dmatrix.h"
#include "libsvm_line.h"
#include "number_parse.h"
#include "text_scan.h"

namespace treering::data::detail {
namespace {

const char* TokenEnd(const char* p, const char* end) {
  while (p != end && !IsBlank(*p) && *p != '#') ++p;
  return p;
}

std::string DescribeFloat(FloatError error, const char* what, const std::string& token) {
  if (error == FloatError::kNonFinite) {
    return std::string("non-finite ") + what + ", got " + token +
           " (leave a missing feature out instead)";
  }
  if (error == FloatError::kOutOfRange) {
    return std::string(what) + " out of float range, got " + token;
  }
  return "";
}

std::string DescribeLabel(const char* at, const char* end) {
  const std::string token = QuoteToken(at, end);
  float value;
  FloatError error = FloatError::kNone;
  const char* p = ParseFiniteFloat(at, end, &value, &error);
  if (p != nullptr && p != end && *p == ':') ParseFiniteFloat(p + 1, end, &value, &error);
  std::string message = DescribeFloat(error, "label or weight", token);
  return message.empty() ? "expected label[:weight], got " + token : message;
}

std::string DescribeEntry(const char* at, const char* end, int index_base) {
  const std::string token = QuoteToken(at, end);
  const char* p = at;
  if (*p == '-' && p + 1 != end && std::isdigit(static_cast<unsigned char>(p[1]))) {
    return "negative feature index, got " + token;
  }
  while (p != end && std::isdigit(static_cast<unsigned char>(*p))) ++p;
  if (p != at && p != end && (*p == '.' || *p == 'e' || *p == 'E')) {
    return "feature index must be an integer, got " + token;
  }
  std::uint64_t index;
  const std::uint64_t max = kMaxFeatures - 1 + static_cast<std::uint64_t>(index_base);
  if (p != at && ParseUnsigned(at, p, max, &index) == nullptr) {
    return "feature index over the limit of " + std::to_string(max) + " (at most " +
           std::to_string(kMaxFeatures) + " features, docs/data.md), got " + token;
  }
  if (p != at && p != end && *p == ':') {
    float value;
    FloatError error = FloatError::kNone;
    ParseFiniteFloat(p + 1, end, &value, &error);
    std::string message = DescribeFloat(error, "value", token);
    if (!message.empty()) return message;
  }
  return "expected index:value, got " + token;
}

}  // namespace

std::string DescribeLineError(LineError* error, const char* line_end, int index_base) {
  const char* at = error->at;
  if (const void* nul =
          std::memchr(at, '\0', static_cast<std::size_t>(TokenEnd(at, line_end) - at))) {
    error->at = static_cast<const char*>(nul);
    return "unexpected NUL byte";
  }
  switch (error->problem) {
    case LineProblem::kLabel:
      return DescribeLabel(at, line_end);
    case LineProblem::kQid:
      return "expected qid:N with N an unsigned integer, got " + QuoteToken(at, line_end);
    case LineProblem::kEntry:
      return DescribeEntry(at, line_end, index_base);
    case LineProblem::kZeroOneBased:
      return "feature index 0 with indexing_mode=1 (1-based indices start at 1), got " +
             QuoteToken(at, line_end);
    case LineProblem::kRepeatedIndex:
      return "feature index " + std::to_string(error->index + index_base) +
             " appears twice in the row, got " + QuoteToken(at, line_end);
    case LineProblem::kCountMismatch:
    case LineProblem::kNone:
      break;
  }
  return "internal error: the LibSVM parsing and counting passes disagree on this line";
}

}  // namespace treering::data::detail
