// `treering-data serve DIR`: an HTTP/1.1 server for the LibSVM/CSV files under one directory,
// so workers on other machines load `data=http://HOST:PORT/FILE` (docs/data.md).
//
// What it serves, read-only: GET/HEAD of a file with a single `Range` (206, or 416 past the
// end), `ETag`/`Last-Modified` and `If-Match` (412 when the file changed); `GET /` a JSON list
// of the files; `GET /FILE?summary` rows, columns and bytes as JSON; `GET /FILE?counts` with a
// Range: the rows and entries of those lines, the loader's counting pass done here. Paths that
// leave DIR
// (`..`, `%2e%2e`, symlinks pointing out, absolute-form targets) are refused. With a token,
// every request must carry `Authorization: Bearer TOKEN` (compared in constant time).
//
// Limits, so no client can hold it: at most `max_connections` connections (more get 503),
// request headers of at most 8 KiB, read within `header_timeout_s`; no request bodies. One line
// per request on stderr (the access log). Threads: one accept thread plus one per connection;
// Stop() (or the destructor) closes every connection and joins them.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "base/status.h"

namespace treering::data {

struct DataServerOptions {
  std::string dir;                 // the served directory
  std::string host = "127.0.0.1";  // address to bind (0.0.0.0: every interface)
  std::uint16_t port = 0;          // 0: any free port (see DataServer::port())
  std::string token;               // empty: no authentication
  int max_connections = 64;
  double header_timeout_s = 10;  // to receive a whole request header (also idle keep-alive)
  double io_timeout_s = 60;      // for each response to be sent
  bool access_log = true;
  // Answer GET FILE?counts: saves each worker a second transfer of its shard for a count the
  // server does on its own CPU. Off: 400, and workers fetch their chunks twice.
  bool count_ranges = true;
  // Tests only: cut the body of the first `test_drop_count` file replies after this many bytes
  // (closing the connection), to exercise the workers' resume.
  std::uint64_t test_drop_after = 0;
  int test_drop_count = 0;
  // Tests only: called with the method and target of each request before it is answered.
  std::function<void(const std::string& method, const std::string& target)> test_on_request;
};

class DataServer {
 public:
  static Result<std::unique_ptr<DataServer>> Start(const DataServerOptions& options);
  ~DataServer();
  DataServer(const DataServer&) = delete;
  DataServer& operator=(const DataServer&) = delete;

  std::uint16_t port() const;
  void Stop();

  struct Impl;

 private:
  explicit DataServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace treering::data
