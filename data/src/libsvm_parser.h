// The LibSVM dialect (docs/data.md): one row per line,
//   label[:weight] [qid:N] index:value index:value ...  [# comment]
// separated by spaces, tabs or '\r'; blank and comment-only lines hold no row. Indices are
// taken as written (0-based, as XGBoost reads them) unless indexing_mode=1.
#pragma once

#include <string_view>
#include <utility>
#include <vector>

#include "csr_cursor.h"
#include "libsvm_line.h"

namespace treering::data::detail {

// Adds the rows and entries of the whole lines in `text` to *counts. Exact for well-formed
// lines (the parsing pass reports any other line).
void CountLibsvm(std::string_view text, ChunkCounts* counts);

class LibsvmParser {
 public:
  // index_base: 0 (indices as written) or 1 (indices written 1-based). xgboost_floats: round
  // numbers as XGBoost 1.7 does (xgboost_float.h) instead of correctly.
  LibsvmParser(int index_base, bool xgboost_floats)
      : index_base_(index_base), xgboost_floats_(xgboost_floats) {}

  // Parses the whole lines of `text`, which starts at byte `offset` of its file, into the
  // cursor. Returns false at the first malformed line with *failure set.
  bool Parse(std::string_view text, std::uint64_t offset, CsrCursor* cursor, ParseFailure* failure);

 private:
  bool ParseLine(const char* line, const char* end, std::uint64_t line_offset, CsrCursor* cursor,
                 LineError* error);
  bool SortRow(std::uint64_t row_begin, CsrCursor* cursor, LineError* error);

  int index_base_;
  bool xgboost_floats_;
  std::vector<std::pair<std::uint32_t, float>> row_scratch_;  // for sorting unsorted rows
};

}  // namespace treering::data::detail
