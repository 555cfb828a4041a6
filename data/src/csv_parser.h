// The CSV dialect (docs/data.md): one row per non-blank line, cells separated by ','. The label
// is in column `label_column` (XGBoost's label_column, default 0); the other columns are the
// features in order, so with label_column=0 feature j is column j+1. An empty cell is a missing
// feature; blanks around a number are ignored. No header line, no quoting, no comments.
#pragma once

#include <cstdint>
#include <string_view>

#include "csr_cursor.h"

namespace treering::data::detail {

void CountCsv(std::string_view text, std::uint64_t label_column, ChunkCounts* counts);

// Parses the whole lines of `text`, which starts at byte `offset` of its file. Returns false at
// the first malformed line with *failure set.
bool ParseCsv(std::string_view text, std::uint64_t offset, std::uint64_t label_column,
              CsrCursor* cursor, ParseFailure* failure);

}  // namespace treering::data::detail
