// A read-only HTTP/1.1 server for the files under one directory: the server of `treering-data
// serve DIR` and `treering-submit --serve-data DIR`, so workers on other machines load
// `data=http://HOST:PORT/FILE` (docs/data.md).
//
// What it serves: GET/HEAD of a file with a single `Range` (206, or 416 past the end),
// `ETag`/`Last-Modified` and `If-Match` (412 when the file changed); `GET /` a JSON list of the
// files; `GET /FILE?QUERY` whatever FileServerOptions::queries answers (treering-data's
// ?summary and ?counts, data/data_queries.h), 400 without one. Paths that leave DIR
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
#include "net/file_request.h"

namespace treering::net {

struct FileServerOptions {
  std::string dir;                 // the served directory
  std::string host = "127.0.0.1";  // address to bind (0.0.0.0: every interface)
  std::uint16_t port = 0;          // 0: any free port (see FileServer::port())
  std::string token;               // empty: no authentication
  int max_connections = 64;
  double header_timeout_s = 10;  // to receive a whole request header (also idle keep-alive)
  double io_timeout_s = 60;      // for each response to be sent
  bool access_log = true;
  // Answers GET FILE?QUERY; empty: every query is 400.
  QueryHandler queries;
  // Tests only: cut the body of the first `test_drop_count` file replies after this many bytes
  // (closing the connection), to exercise the workers' resume.
  std::uint64_t test_drop_after = 0;
  int test_drop_count = 0;
  // Tests only: called with the method and target of each request before it is answered.
  std::function<void(const std::string& method, const std::string& target)> test_on_request;
};

class FileServer {
 public:
  static Result<std::unique_ptr<FileServer>> Start(const FileServerOptions& options);
  ~FileServer();
  FileServer(const FileServer&) = delete;
  FileServer& operator=(const FileServer&) = delete;

  std::uint16_t port() const;
  void Stop();

  struct Impl;

 private:
  explicit FileServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace treering::net
