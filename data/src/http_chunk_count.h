// The counting pass for a remote chunk without moving the chunk: `treering-data serve` counts
// the rows and entries of a byte range itself (GET FILE?counts with a Range, docs/data.md), so
// over HTTP the shard's bytes cross the network once, for the parsing pass, instead of twice.
// The server runs the same counting code over the same line-aligned range, so the counts are
// the ones the loader would have found; the parsing pass still checks them row by row.
#pragma once

#include <cstdint>
#include <optional>

#include "base/status.h"
#include "csr_cursor.h"
#include "input_files.h"
#include "net/http_range_reader.h"

namespace treering::data::detail {

// The counts of the lines in [begin, end) of the reader's file, or nullopt when the server does
// not count (a plain HTTP server, an older treering-data serve): the caller then reads the
// chunk itself. Errors (412, 401, connection trouble after retries, impossible counts) are
// errors, as for a read.
Result<std::optional<ChunkCounts>> CountOnServer(net::HttpRangeReader* reader, std::uint64_t begin,
                                                 std::uint64_t end, TextFormat format,
                                                 std::uint64_t label_column);

}  // namespace treering::data::detail
