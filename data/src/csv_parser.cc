#include "csv_parser.h"

#include <algorithm>
#include <limits>

#include "number_parse.h"
#include "text_scan.h"

namespace treering::data::detail {
namespace {

struct Cell {
  const char* begin;  // first non-blank byte
  const char* end;    // one past the last non-blank byte
  const char* next;   // the ',' after the cell or the line end
};

Cell NextCell(const char* p, const char* line_end) {
  const char* comma = std::find(p, line_end, ',');
  const char* begin = SkipBlanks(p, comma);
  const char* end = comma;
  while (end != begin && IsBlank(end[-1])) --end;
  return Cell{begin, end, comma};
}

bool IsBlankLine(const char* p, const char* end) { return SkipBlanks(p, end) == end; }

// Parses a whole cell as a finite float; on failure fills *failure (offset relative to text).
bool ParseCell(const Cell& cell, const char* line_end, const char* what, float* out,
               ParseFailure* failure, const char** bad) {
  FloatError error = FloatError::kNone;
  const char* p = ParseFiniteFloat(cell.begin, cell.end, out, &error);
  if (p == cell.end && cell.begin != cell.end) return true;
  *bad = cell.begin;
  const std::string token = QuoteToken(cell.begin, line_end, ",");
  if (cell.begin == cell.end) {
    failure->message = std::string("missing ") + what + " (empty cell)";
  } else if (error == FloatError::kNonFinite) {
    failure->message = std::string("non-finite ") + what + ", got " + token +
                       " (leave a missing feature's cell empty instead)";
  } else if (error == FloatError::kOutOfRange) {
    failure->message = std::string(what) + " out of float range, got " + token;
  } else {
    failure->message = std::string("expected a number as ") + what + ", got " + token;
  }
  return false;
}

bool ParseCsvLine(const char* line, const char* line_end, CsrCursor* cursor, ParseFailure* failure,
                  const char** bad) {
  Cell cell = NextCell(line, line_end);
  float label;
  if (!ParseCell(cell, line_end, "label", &label, failure, bad)) return false;
  if (cursor->rows == cursor->row_capacity) {
    failure->internal = true;
    failure->message = "internal error: the CSV parsing and counting passes disagree";
    return *bad = line, false;
  }
  std::uint64_t column = 0;
  while (cell.next != line_end) {
    cell = NextCell(cell.next + 1, line_end);
    ++column;
    if (cell.begin == cell.end) continue;  // empty cell: missing feature
    float value;
    if (!ParseCell(cell, line_end, "value", &value, failure, bad)) return false;
    if (cursor->entries == cursor->entry_capacity) {
      failure->internal = true;
      failure->message = "internal error: the CSV parsing and counting passes disagree";
      return *bad = cell.begin, false;
    }
    cursor->index[cursor->entries] = static_cast<std::uint32_t>(column - 1);
    cursor->value[cursor->entries++] = value;
  }
  cursor->num_col = std::max(cursor->num_col, column);
  cursor->label[cursor->rows] = label;
  cursor->SetRowExtras(false, 1.0f, false, 0);
  cursor->EndRow();
  return true;
}

}  // namespace

void CountCsv(std::string_view text, ChunkCounts* counts) {
  const char* p = text.data();
  const char* end = p + text.size();
  for (const char* line = p; line < end; line = p + 1) {
    p = LineEnd(line, end);
    if (IsBlankLine(line, p)) continue;
    counts->rows += 1;
    Cell cell = NextCell(line, p);
    while (cell.next != p) {
      cell = NextCell(cell.next + 1, p);
      counts->entries += cell.begin != cell.end;
    }
  }
}

bool ParseCsv(std::string_view text, std::uint64_t offset, CsrCursor* cursor,
              ParseFailure* failure) {
  const char* p = text.data();
  const char* end = p + text.size();
  for (const char* line = p; line < end; line = p + 1) {
    p = LineEnd(line, end);
    if (IsBlankLine(line, p)) continue;
    const char* bad = line;
    if (!ParseCsvLine(line, p, cursor, failure, &bad)) {
      failure->offset = offset + static_cast<std::uint64_t>(bad - text.data());
      return false;
    }
  }
  return true;
}

}  // namespace treering::data::detail
