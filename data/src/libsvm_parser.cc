#include "libsvm_parser.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "data/dmatrix.h"
#include "libsvm_line.h"
#include "number_parse.h"
#include "text_scan.h"
#include "xgboost_float.h"

namespace treering::data::detail {
namespace {

constexpr std::uint64_t kMaxIndex = kMaxFeatures - 1;  // as stored (0-based)

inline bool EndsToken(const char* p, const char* end) {
  return p == end || IsBlank(*p) || *p == '#';
}

struct RowHeader {
  float label = 0;
  float weight = 1;
  std::uint64_t qid = 0;
  bool has_weight = false;
  bool has_qid = false;
};

// label[:weight] [qid:N]; returns the position after them or nullptr with *error set.
const char* ParseRowHeader(const char* p, const char* end, bool xgboost_floats, RowHeader* header,
                           LineError* error) {
  const char* token = p;
  FloatError float_error;
  p = ParseFiniteFloat(p, end, &header->label, &float_error);
  if (p != nullptr && xgboost_floats) header->label = XGBoostFloat(token, p);
  if (p != nullptr && p != end && *p == ':') {
    header->has_weight = true;
    const char* weight = p + 1;
    p = ParseFiniteFloat(weight, end, &header->weight, &float_error);
    if (p != nullptr && xgboost_floats) header->weight = XGBoostFloat(weight, p);
  }
  if (p == nullptr || !EndsToken(p, end)) {
    *error = {LineProblem::kLabel, token};
    return nullptr;
  }
  p = SkipBlanks(p, end);
  if (end - p >= 4 && std::memcmp(p, "qid:", 4) == 0) {
    token = p;
    header->has_qid = true;
    p = ParseUnsigned(p + 4, end, std::numeric_limits<std::uint64_t>::max(), &header->qid);
    if (p == nullptr || !EndsToken(p, end)) {
      *error = {LineProblem::kQid, token};
      return nullptr;
    }
  }
  return p;
}

struct RowEntries {
  bool sorted = true;
};

// The hot loop's helpers rely on the byte at a line's `end` being '\n' or '#' (lines are cut
// at '#', and ForEachLineBlock follows the last line of a block with a '\n'), so loops over
// digits and blanks stop there without also comparing against `end`.
constexpr std::uint64_t kTokenEnds =
    (1ull << ' ') | (1ull << '\t') | (1ull << '\r') | (1ull << '\n') | (1ull << '#');

inline bool IsTokenEnd(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u <= '#' && ((kTokenEnds >> u) & 1) != 0;
}

inline const char* SkipBlanksToEnd(const char* p) {
  while (IsBlank(*p)) ++p;
  return p;
}

// "index:" -> the position after ':', or nullptr (the error path says what is wrong).
inline const char* ParseIndexColon(const char* p, std::uint64_t* index) {
  const char* start = p;
  std::uint64_t v = 0;
  while (IsDigit(*p)) v = v * 10 + static_cast<unsigned>(*p++ - '0');
  if (p == start || p - start > 10 || *p != ':') return nullptr;  // > 10 digits: > 2^33
  *index = v;
  return p + 1;
}

// A value: the Clinger fast path of number_parse.h without bounds checks, else the general
// parser. Returns the position after the number or nullptr.
inline const char* ParseValue(const char* p, const char* end, float* value) {
  static constexpr float kPow10[] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f,
                                     1e6f, 1e7f, 1e8f, 1e9f, 1e10f};
  const bool negative = *p == '-';
  const char* q = p + negative;
  const char* digits = q;
  std::uint64_t mantissa = 0;  // wraps harmlessly beyond 19 digits: those take the slow path
  while (IsDigit(*q)) mantissa = mantissa * 10 + static_cast<unsigned>(*q++ - '0');
  std::ptrdiff_t total = q - digits;
  std::ptrdiff_t decimals = 0;
  if (*q == '.') {
    const char* fraction = ++q;
    while (IsDigit(*q)) mantissa = mantissa * 10 + static_cast<unsigned>(*q++ - '0');
    decimals = q - fraction;
    total += decimals;
  }
  if (total > 0 && total <= 19 && decimals <= 10 && mantissa <= (1u << 24) && *q != 'e' &&
      *q != 'E') {
    const float magnitude = static_cast<float>(mantissa) / kPow10[decimals];
    *value = negative ? -magnitude : magnitude;
    return q;
  }
  FloatError error;
  return ParseFiniteFloat(p, end, value, &error);
}

// The hot loop: index:value pairs written straight into the cursor's arrays.
bool ParseEntries(const char* p, const char* end, int index_base, bool xgboost_floats,
                  CsrCursor* cursor, RowEntries* row, LineError* error) {
  std::uint32_t* index_out = cursor->index + cursor->entries;
  float* value_out = cursor->value + cursor->entries;
  const std::uint32_t* index_limit = cursor->index + cursor->entry_capacity;
  const std::uint64_t max_written = kMaxIndex + index_base;
  std::int64_t previous = -1;  // indices fit in 33 bits, so -1 is below every index
  for (p = SkipBlanksToEnd(p); p != end; p = SkipBlanksToEnd(p)) {
    const char* token = p;
    std::uint64_t index = 0;
    float value;
    p = ParseIndexColon(p, &index);
    const char* value_text = p;
    if (p != nullptr) p = ParseValue(p, end, &value);
    if (p != nullptr && xgboost_floats) value = XGBoostFloat(value_text, p);
    if (p == nullptr || !IsTokenEnd(*p) || index > max_written) {
      return *error = {LineProblem::kEntry, token}, false;
    }
    if (index_base == 1 && index-- == 0) return *error = {LineProblem::kZeroOneBased, token}, false;
    if (static_cast<std::int64_t>(index) <= previous) {
      if (static_cast<std::int64_t>(index) == previous)
        return *error = {LineProblem::kRepeatedIndex, token, index}, false;
      row->sorted = false;
    }
    if (index_out == index_limit) return *error = {LineProblem::kCountMismatch, token}, false;
    *index_out++ = static_cast<std::uint32_t>(index);
    *value_out++ = value;
    previous = static_cast<std::int64_t>(index);
  }
  cursor->entries = static_cast<std::uint64_t>(index_out - cursor->index);
  return true;
}

// Finds the token of the second occurrence of feature `index` on the line (error path only).
const char* FindRepeatedToken(const char* p, const char* end, std::uint64_t index, int index_base) {
  int seen = 0;
  for (p = SkipBlanks(p, end); p != end; p = SkipBlanks(p, end)) {
    const char* token = p;
    std::uint64_t written;
    const char* after = ParseUnsigned(p, end, kMaxIndex + 1, &written);
    if (after != nullptr && after != end && *after == ':' && written - index_base == index &&
        ++seen == 2) {
      return token;
    }
    while (p != end && !IsBlank(*p)) ++p;
  }
  return end;
}

}  // namespace

bool LibsvmParser::Parse(std::string_view text, std::uint64_t offset, CsrCursor* cursor,
                         ParseFailure* failure) {
  const char* p = text.data();
  const char* end = p + text.size();
  for (const char* line = p; line < end; line = p + 1) {
    p = LineEnd(line, end);
    LineError error;
    const auto line_offset = offset + static_cast<std::uint64_t>(line - text.data());
    if (!ParseLine(line, p, line_offset, cursor, &error)) {
      failure->message = DescribeLineError(&error, p, index_base_);
      failure->offset = offset + static_cast<std::uint64_t>(error.at - text.data());
      failure->internal = error.problem == LineProblem::kCountMismatch;
      return false;
    }
  }
  return true;
}

bool LibsvmParser::ParseLine(const char* line, const char* end, std::uint64_t line_offset,
                             CsrCursor* cursor, LineError* error) {
  if (const void* hash = std::memchr(line, '#', static_cast<std::size_t>(end - line))) {
    end = static_cast<const char*>(hash);
  }
  const char* p = SkipBlanks(line, end);
  if (p == end) return true;  // blank or comment-only line
  RowHeader header;
  const char* label = p;
  p = ParseRowHeader(p, end, xgboost_floats_, &header, error);
  if (p == nullptr) return false;
  CsrCursor::RowMark& mark = header.has_weight ? cursor->first_weighted : cursor->first_unweighted;
  if (!mark.seen) {
    mark = {true, line_offset + static_cast<std::uint64_t>(label - line), QuoteToken(label, end)};
  }
  if (cursor->rows == cursor->row_capacity)
    return *error = {LineProblem::kCountMismatch, line}, false;
  const std::uint64_t row_begin = cursor->entries;
  RowEntries row;
  if (!ParseEntries(p, end, index_base_, xgboost_floats_, cursor, &row, error)) return false;
  if (!row.sorted && !SortRow(row_begin, cursor, error)) {
    error->at = FindRepeatedToken(p, end, error->index, index_base_);
    return false;
  }
  if (cursor->entries > row_begin) {  // sorted: the row's last index is its largest
    cursor->num_col =
        std::max<std::uint64_t>(cursor->num_col, cursor->index[cursor->entries - 1] + 1ull);
  }
  cursor->label[cursor->rows] = header.label;
  cursor->SetRowExtras(header.has_weight, header.weight, header.has_qid, header.qid);
  cursor->EndRow();
  return true;
}

// Rows written out of index order are sorted in place (XGBoost accepts them); an index that
// appears twice is an error.
bool LibsvmParser::SortRow(std::uint64_t row_begin, CsrCursor* cursor, LineError* error) {
  row_scratch_.clear();
  for (std::uint64_t e = row_begin; e < cursor->entries; ++e) {
    row_scratch_.emplace_back(cursor->index[e], cursor->value[e]);
  }
  std::sort(row_scratch_.begin(), row_scratch_.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = 0; i < row_scratch_.size(); ++i) {
    if (i > 0 && row_scratch_[i].first == row_scratch_[i - 1].first) {
      *error = {LineProblem::kRepeatedIndex, nullptr, row_scratch_[i].first};
      return false;
    }
    cursor->index[row_begin + i] = row_scratch_[i].first;
    cursor->value[row_begin + i] = row_scratch_[i].second;
  }
  return true;
}

}  // namespace treering::data::detail
