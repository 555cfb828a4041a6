// The CSV dialect (docs/data.md): one row per non-blank line, cells separated by ',', the label
// in column 0 (XGBoost's label_column=0), feature j in column j+1. An empty cell is a missing
// feature; blanks around a number are ignored. No header line, no quoting, no comments.
#pragma once

#include <string_view>

#include "csr_cursor.h"

namespace treering::data::detail {

void CountCsv(std::string_view text, ChunkCounts* counts);

// Parses the whole lines of `text`, which starts at byte `offset` of its file. Returns false at
// the first malformed line with *failure set.
bool ParseCsv(std::string_view text, std::uint64_t offset, CsrCursor* cursor,
              ParseFailure* failure);

}  // namespace treering::data::detail
