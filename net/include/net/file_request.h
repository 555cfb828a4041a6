// What the file server (file_server.h) answers to one request, decided without touching the
// socket: method, authentication, path, query and Range in; a status, headers and either a small
// body or a byte range of an open file out. Unit-tested on plain structs (tests/net).
//
// The server itself knows files only: GET/HEAD with Range, ETag and If-Match, and the listing.
// A request with a query (`GET /FILE?summary`) goes to the program's QueryHandler: the data
// layer answers its ?summary and ?counts there (data/data_queries.h), so this layer needs no
// parser.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace treering::net {

struct FileRequest {
  std::string method;
  std::string target;  // as received (origin-form expected)
  std::string range;   // the Range header, empty when absent
  std::string if_match;
  std::string authorization;
};

struct FileResponse {
  unsigned status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;  // the whole body, unless file_fd >= 0
  int file_fd = -1;  // owned: the caller sends [file_offset, +file_length) and closes
  std::uint64_t file_offset = 0;
  std::uint64_t file_length = 0;
  bool head_only = false;  // HEAD: the headers say the length, no body is sent
};

// A request for a served file with a query: `name` is the path below the served directory as
// the client wrote it (decoded), `real_path` the file (symlinks resolved, inside the
// directory), `query` the text after '?'.
struct FileQuery {
  const FileRequest& request;
  std::string name;
  std::string real_path;
  std::string query;
};
// Answers every query (an unknown one with its own 400); called from the connection threads
// at once, so it must be thread-safe.
using QueryHandler = std::function<FileResponse(const FileQuery&)>;

class FileRequestHandler {
 public:
  // `root`: the served directory, resolved; `token`: empty for no authentication; `queries`:
  // empty to answer every query with 400.
  FileRequestHandler(std::string root, std::string token, QueryHandler queries = {});
  FileResponse Handle(const FileRequest& request) const;

 private:
  FileResponse Listing() const;
  FileResponse File(const FileRequest& request, const std::string& real_path) const;
  bool Authorized(const std::string& authorization) const;

  std::string root_;
  std::string token_;
  QueryHandler queries_;
};

// The pieces of an answer a QueryHandler shares with the server's own answers.

// JSON {"error": message} with `status`.
FileResponse ErrorReply(unsigned status, const std::string& message);
// 200 with a JSON body (`json` is the serialised value; a newline is added).
FileResponse JsonReply(const std::string& json);
// Strong validator: changes whenever the file is replaced (inode), rewritten (mtime) or resized.
std::string ETagOf(const struct stat& info);
// If-Match: empty, "*" or a list of ETags, one of which must be `etag`.
bool IfMatchHolds(const std::string& if_match, const std::string& etag);

// Constant-time comparison (the time does not depend on where the strings differ).
bool SecretEquals(const std::string& a, const std::string& b);

// A single "bytes=" range against a file of `size` bytes. kIgnore: absent, malformed or several
// ranges (RFC 9110 lets a server ignore them and send the whole file).
enum class RangeKind { kIgnore, kSatisfiable, kUnsatisfiable };
RangeKind ParseRange(const std::string& header, std::uint64_t size, std::uint64_t* first,
                     std::uint64_t* length);

}  // namespace treering::net
