// What `treering-data serve` answers beyond a file's bytes: the queries on a served file that
// need the loader. The HTTP server (net/file_server.h) knows files, ranges and ETags only; it
// hands every `GET /FILE?QUERY` to this handler (docs/data.md, Data over HTTP):
//   ?summary   rows, columns, non-zeros, bytes and format of the whole file, loaded once and
//              cached per ETag; 422 with the parse error
//   ?counts    with a Range (and &format=csv&label_column=N for CSV): the rows and entries of
//              those lines, counted by the loader's own counting pass, so a worker's first
//              pass moves a few hundred bytes instead of its shard
// Any other query is 400. Thread-safe (the server calls it from every connection thread).
#pragma once

#include "net/file_request.h"

namespace treering::data {

// `count_ranges` false: ?counts is an unknown query too (`serve --no-counts`), so workers fetch
// their chunks twice.
net::QueryHandler DataQueries(bool count_ranges = true);

}  // namespace treering::data
