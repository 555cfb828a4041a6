// The external-memory loader behind Load() for a `#cacheprefix` URI (data/external_columns.h).
#pragma once

#include <cstdint>

#include "base/context.h"
#include "data/external_columns.h"
#include "data/load.h"

namespace treering::data::detail {

// Reads this part's rows a slice at a time (sub-parts of the part: the same rows as one
// Load) and spills each dense slice's values by column. Sparse data, whose values a column
// file cannot hold by position, are loaded in memory instead (a note on stderr).
// uri.prefix empty: the streamed in-memory load (docs/data.md, "Streamed load"): the columns
// go to a private temporary directory and the learner bins them into memory; sparse data load
// as usual and a failure to spill (an unwritable TMPDIR, a full disk) loads the matrix whole
// in memory with a note on stderr.
Result<DMatrix> LoadExternal(const CacheUri& uri, const LoadOptions& options, const Context& ctx,
                             LoadStats* stats);

// Text bytes of a part from which a dense training load streams (LoadOptions::stream_dense).
// Why this size: docs/data.md, "Streamed load".
constexpr std::uint64_t kStreamLoadBytes = std::uint64_t{512} << 20;

// Whether a part of `part_bytes` streams: TREERING_STREAM_LOAD=1 forces it on, =0 off;
// otherwise from kStreamLoadBytes up.
bool StreamLoadWanted(std::uint64_t part_bytes);

}  // namespace treering::data::detail
