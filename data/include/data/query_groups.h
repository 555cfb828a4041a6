// Query groups of ranking data (XGBoost's group_ptr_) as files give them: a FILE.group next
// to a one-file URI (XGBoost's convention: one group size per line), or rows' qid:N. The
// distributed step (shards that hold whole groups, across ranks) is query_group_shards.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace treering::data {

// PATH.group when `uri` names one local file PATH (options after '?' aside) and PATH.group
// exists; "" otherwise (lists, globs and http:// URIs have none).
Result<std::string> GroupFilePath(const std::string& uri);

// The group sizes in `path`: one integer >= 1 per line (blank lines and '#' comments
// skipped). Errors name PATH:LINE.
Result<std::vector<std::uint64_t>> ReadGroupSizes(const std::string& path);

// "FILE:LINE" of row `row` (0-based, in the concatenation of the URI's files): counts the
// lines that hold a row. For error messages only: it reads the files from the start.
Result<std::string> LocateRow(const std::string& uri, std::uint64_t row);

// group_ptr from consecutive runs of equal ids (XGBoost 1.7's SimpleDMatrix rule for qid):
// {0, run ends..., ids.size()}; {0} for no rows.
std::vector<std::uint64_t> GroupsFromIds(const std::vector<std::uint64_t>& ids);

}  // namespace treering::data
