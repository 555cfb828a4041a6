#include "csv_parser.h"

#include <algorithm>
#include <limits>

#include "data/dmatrix.h"
#include "number_parse.h"
#include "text_scan.h"

namespace treering::data::detail {
namespace {

struct Cell {
  const char* begin;  // first non-blank byte
  const char* end;    // one past the last non-blank byte
  const char* next;   // the ',' after the cell or the line end
  bool empty() const { return begin == end; }
};

Cell NextCell(const char* p, const char* line_end) {
  const char* comma = std::find(p, line_end, ',');
  const char* begin = SkipBlanks(p, comma);
  const char* end = comma;
  while (end != begin && IsBlank(end[-1])) --end;
  return Cell{begin, end, comma};
}

// Calls on_cell(cell, column) for every cell of the line [p, line_end).
template <typename OnCell>
void ForEachCell(const char* p, const char* line_end, OnCell&& on_cell) {
  for (std::uint64_t column = 0;; ++column) {
    const Cell cell = NextCell(p, line_end);
    if (!on_cell(cell, column) || cell.next == line_end) return;
    p = cell.next + 1;
  }
}

bool IsBlankLine(const char* p, const char* end) { return SkipBlanks(p, end) == end; }

// Parses a whole cell as a finite float; on failure fills *failure and *bad.
bool ParseCell(const Cell& cell, const char* line_end, const char* what, float* out,
               ParseFailure* failure, const char** bad) {
  FloatError error = FloatError::kNone;
  const char* p = ParseFiniteFloat(cell.begin, cell.end, out, &error);
  if (p == cell.end && !cell.empty()) return true;
  *bad = cell.begin;
  const std::string token = QuoteToken(cell.begin, line_end, ",");
  if (cell.empty()) {
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

bool CountMismatch(const char* at, ParseFailure* failure, const char** bad) {
  failure->internal = true;
  failure->message = "internal error: the CSV parsing and counting passes disagree";
  *bad = at;
  return false;
}

bool ParseCsvLine(const char* line, const char* line_end, std::uint64_t label_column,
                  CsrCursor* cursor, ParseFailure* failure, const char** bad) {
  if (cursor->rows == cursor->row_capacity) return CountMismatch(line, failure, bad);
  float label = 0;
  bool has_label = false;
  bool ok = true;
  std::uint64_t feature = 0;  // the next feature index: columns other than the label's
  ForEachCell(line, line_end, [&](const Cell& cell, std::uint64_t column) {
    if (column == label_column) {
      return ok = has_label = ParseCell(cell, line_end, "label", &label, failure, bad);
    }
    if (feature == kMaxFeatures) {
      *bad = cell.begin;
      failure->message = "more than " + std::to_string(kMaxFeatures) +
                         " feature columns on the line (the limit, docs/data.md)";
      return ok = false;
    }
    float value;
    if (!cell.empty()) {
      if (!ParseCell(cell, line_end, "value", &value, failure, bad)) return ok = false;
      if (cursor->entries == cursor->entry_capacity)
        return ok = CountMismatch(cell.begin, failure, bad);
      cursor->index[cursor->entries] = static_cast<std::uint32_t>(feature);
      cursor->value[cursor->entries++] = value;
    }
    ++feature;
    return true;
  });
  if (!ok) return false;
  if (!has_label) {
    *bad = line;
    failure->message = "missing label: the row has " + std::to_string(feature) +
                       " columns, the label is column " + std::to_string(label_column) +
                       " (0-based)";
    return false;
  }
  cursor->num_col = std::max(cursor->num_col, feature);
  cursor->label[cursor->rows] = label;
  cursor->SetRowExtras(false, 1.0f, false, 0);
  cursor->EndRow();
  return true;
}

}  // namespace

void CountCsv(std::string_view text, std::uint64_t label_column, ChunkCounts* counts) {
  const char* p = text.data();
  const char* end = p + text.size();
  for (const char* line = p; line < end; line = p + 1) {
    p = LineEnd(line, end);
    if (IsBlankLine(line, p)) continue;
    counts->rows += 1;
    ForEachCell(line, p, [&](const Cell& cell, std::uint64_t column) {
      counts->entries += column != label_column && !cell.empty();
      return true;
    });
  }
}

bool ParseCsv(std::string_view text, std::uint64_t offset, std::uint64_t label_column,
              CsrCursor* cursor, ParseFailure* failure) {
  const char* p = text.data();
  const char* end = p + text.size();
  for (const char* line = p; line < end; line = p + 1) {
    p = LineEnd(line, end);
    if (IsBlankLine(line, p)) continue;
    const char* bad = line;
    if (!ParseCsvLine(line, p, label_column, cursor, failure, &bad)) {
      failure->offset = offset + static_cast<std::uint64_t>(bad - text.data());
      return false;
    }
  }
  return true;
}

}  // namespace treering::data::detail
