// The external-memory loader behind Load() for a `#cacheprefix` URI (data/external_columns.h).
#pragma once

#include "base/context.h"
#include "data/external_columns.h"
#include "data/load.h"

namespace treering::data::detail {

// Reads this part's rows a slice at a time (sub-parts of the part: the same rows as one
// Load) and spills each dense slice's values by column. Sparse data, whose values a column
// file cannot hold by position, are loaded in memory instead (a note on stderr).
Result<DMatrix> LoadExternal(const CacheUri& uri, const LoadOptions& options, const Context& ctx,
                             LoadStats* stats);

}  // namespace treering::data::detail
