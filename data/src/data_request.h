// What `treering-data serve` answers to one request, decided without touching the socket:
// method, authentication, path, query and Range in; a status, headers and either a small body
// or a byte range of an open file out. Unit-tested on plain structs (tests/data).
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace treering::data::detail {

struct DataRequest {
  std::string method;
  std::string target;  // as received (origin-form expected)
  std::string range;   // the Range header, empty when absent
  std::string if_match;
  std::string authorization;
};

struct DataResponse {
  unsigned status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;  // the whole body, unless file_fd >= 0
  int file_fd = -1;  // owned: the caller sends [file_offset, +file_length) and closes
  std::uint64_t file_offset = 0;
  std::uint64_t file_length = 0;
  bool head_only = false;  // HEAD: the headers say the length, no body is sent
};

class DataRequestHandler {
 public:
  // `root`: the served directory, resolved; `token`: empty for no authentication;
  // `count_ranges`: whether GET FILE?counts is answered.
  DataRequestHandler(std::string root, std::string token, bool count_ranges = true);
  DataResponse Handle(const DataRequest& request) const;

 private:
  DataResponse Listing() const;
  DataResponse Summary(const std::string& name, const std::string& real_path,
                       const std::string& etag) const;
  DataResponse File(const DataRequest& request, const std::string& real_path) const;
  DataResponse Counts(const DataRequest& request, const std::string& real_path,
                      const std::string& query) const;
  bool Authorized(const std::string& authorization) const;

  std::string root_;
  std::string token_;
  bool count_ranges_ = true;
  mutable std::mutex summary_mutex_;
  mutable std::map<std::string, std::string> summaries_;  // "path etag" -> JSON
};

// Constant-time comparison (the time does not depend on where the strings differ).
bool SecretEquals(const std::string& a, const std::string& b);

// A single "bytes=" range against a file of `size` bytes. kIgnore: absent, malformed or several
// ranges (RFC 9110 lets a server ignore them and send the whole file).
enum class RangeKind { kIgnore, kSatisfiable, kUnsatisfiable };
RangeKind ParseRange(const std::string& header, std::uint64_t size, std::uint64_t* first,
                     std::uint64_t* length);

}  // namespace treering::data::detail
