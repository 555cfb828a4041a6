#include "net/file_request.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <ctime>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "net/http_url.h"
#include "served_path.h"

namespace treering::net {
namespace {

std::string HttpDate(std::time_t t) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[64];
  std::strftime(text, sizeof text, "%a, %d %b %Y %H:%M:%S GMT", &tm);
  return text;
}

bool ParseNumber(std::string_view text, std::uint64_t* value) {
  const auto [next, ec] = std::from_chars(text.data(), text.data() + text.size(), *value);
  return !text.empty() && ec == std::errc() && next == text.data() + text.size();
}

}  // namespace

FileResponse ErrorReply(unsigned status, const std::string& message) {
  FileResponse r;
  r.status = status;
  r.body = nlohmann::json{{"error", message}}.dump() + "\n";
  r.headers.emplace_back("Content-Type", "application/json");
  return r;
}

FileResponse JsonReply(const std::string& json) {
  FileResponse r;
  r.body = json + "\n";
  r.headers.emplace_back("Content-Type", "application/json");
  return r;
}

std::string ETagOf(const struct stat& info) {
  char text[80];
  const auto ns = static_cast<unsigned long long>(info.st_mtim.tv_sec) * 1000000000ull +
                  static_cast<unsigned long long>(info.st_mtim.tv_nsec);
  std::snprintf(text, sizeof text, "\"%llx-%llx-%llx\"",
                static_cast<unsigned long long>(info.st_size), ns,
                static_cast<unsigned long long>(info.st_ino));
  return text;
}

bool IfMatchHolds(const std::string& if_match, const std::string& etag) {
  if (if_match.empty() || if_match == "*") return true;
  std::size_t start = 0;
  while (start <= if_match.size()) {
    std::size_t stop = if_match.find(',', start);
    if (stop == std::string::npos) stop = if_match.size();
    std::string item = if_match.substr(start, stop - start);
    const std::size_t b = item.find_first_not_of(" \t");
    const std::size_t e = item.find_last_not_of(" \t");
    if (b != std::string::npos && item.substr(b, e - b + 1) == etag) return true;
    start = stop + 1;
  }
  return false;
}

bool SecretEquals(const std::string& a, const std::string& b) {
  const std::size_t n = std::max(a.size(), b.size());
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char x = i < a.size() ? a[i] : 0;
    const unsigned char y = i < b.size() ? b[i] : 0;
    diff |= x ^ y;
  }
  return diff == 0;
}

RangeKind ParseRange(const std::string& header, std::uint64_t size, std::uint64_t* first,
                     std::uint64_t* length) {
  if (header.rfind("bytes=", 0) != 0) return RangeKind::kIgnore;
  const std::string_view spec = std::string_view(header).substr(6);
  const std::size_t dash = spec.find('-');
  if (dash == std::string_view::npos || spec.find(',') != std::string_view::npos) {
    return RangeKind::kIgnore;
  }
  std::uint64_t a = 0;
  std::uint64_t b = 0;
  if (dash == 0) {  // "-N": the last N bytes
    if (!ParseNumber(spec.substr(1), &b)) return RangeKind::kIgnore;
    if (b == 0 || size == 0) return RangeKind::kUnsatisfiable;
    *length = std::min(b, size);
    *first = size - *length;
    return RangeKind::kSatisfiable;
  }
  if (!ParseNumber(spec.substr(0, dash), &a)) return RangeKind::kIgnore;
  const std::string_view last = spec.substr(dash + 1);
  if (last.empty()) {
    b = size == 0 ? 0 : size - 1;
  } else if (!ParseNumber(last, &b) || b < a) {
    return RangeKind::kIgnore;
  }
  if (a >= size) return RangeKind::kUnsatisfiable;
  *first = a;
  *length = std::min(b, size - 1) - a + 1;
  return RangeKind::kSatisfiable;
}

FileRequestHandler::FileRequestHandler(std::string root, std::string token, QueryHandler queries)
    : root_(std::move(root)), token_(std::move(token)), queries_(std::move(queries)) {}

bool FileRequestHandler::Authorized(const std::string& authorization) const {
  if (token_.empty()) return true;
  return SecretEquals(authorization, "Bearer " + token_);
}

FileResponse FileRequestHandler::Handle(const FileRequest& request) const {
  if (request.method != "GET" && request.method != "HEAD") {
    FileResponse r = ErrorReply(405, "read-only: only GET and HEAD");
    r.headers.emplace_back("Allow", "GET, HEAD");
    return r;
  }
  if (!Authorized(request.authorization)) {
    FileResponse r = ErrorReply(401, "missing or wrong bearer token");
    r.headers.emplace_back("WWW-Authenticate", "Bearer");
    return r;
  }
  if (request.target.empty() || request.target[0] != '/')
    return ErrorReply(400, "bad request target");
  const std::size_t question = request.target.find('?');
  const std::string query =
      question == std::string::npos ? "" : request.target.substr(question + 1);
  std::string path;
  if (!PercentDecode(request.target.substr(0, question), &path)) {
    return ErrorReply(400, "bad percent-encoding in the path");
  }
  FileResponse r;
  if (path == "/" && query.empty()) {
    r = Listing();
  } else {
    const ServedPath served = ResolveServedPath(root_, path);
    if (served.status != 200) return ErrorReply(served.status, served.error);
    if (!query.empty()) {
      if (!queries_) return ErrorReply(400, "unknown query (this server answers none)");
      r = queries_(FileQuery{request, path.substr(1), served.real_path, query});
    } else {
      r = File(request, served.real_path);
    }
  }
  r.head_only = request.method == "HEAD";
  return r;
}

FileResponse FileRequestHandler::Listing() const {
  namespace fs = std::filesystem;
  nlohmann::json files = nlohmann::json::array();
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(
           root_, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    std::error_code ignored;
    const fs::path real = fs::canonical(it->path(), ignored);
    if (ignored || !InsideRoot(root_, real.string()) || !fs::is_regular_file(real, ignored)) {
      if (it->is_symlink(ignored)) it.disable_recursion_pending();  // never walk out of DIR
      continue;
    }
    struct stat info {};
    if (stat(real.c_str(), &info) != 0) continue;
    files.push_back({{"name", fs::relative(it->path(), root_, ignored).string()},
                     {"bytes", static_cast<std::uint64_t>(info.st_size)},
                     {"etag", ETagOf(info)},
                     {"last_modified", HttpDate(info.st_mtim.tv_sec)}});
  }
  return JsonReply(nlohmann::json{{"files", files}}.dump(1));
}

FileResponse FileRequestHandler::File(const FileRequest& request,
                                      const std::string& real_path) const {
  const int fd = open(real_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrorReply(404, "cannot open");
  struct stat info {};
  if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    close(fd);
    return ErrorReply(404, "not a regular file");
  }
  const auto size = static_cast<std::uint64_t>(info.st_size);
  const std::string etag = ETagOf(info);
  if (!IfMatchHolds(request.if_match, etag)) {
    close(fd);
    FileResponse r = ErrorReply(412, "the file changed (ETag is now " + etag + ")");
    r.headers.emplace_back("ETag", etag);
    return r;
  }
  FileResponse r;
  r.headers.emplace_back("ETag", etag);
  r.headers.emplace_back("Last-Modified", HttpDate(info.st_mtim.tv_sec));
  r.headers.emplace_back("Accept-Ranges", "bytes");
  r.headers.emplace_back("Content-Type", "application/octet-stream");
  std::uint64_t first = 0;
  std::uint64_t length = size;
  switch (ParseRange(request.range, size, &first, &length)) {
    case RangeKind::kIgnore:
      first = 0;
      length = size;
      break;
    case RangeKind::kUnsatisfiable: {
      close(fd);
      FileResponse bad = ErrorReply(416, "range not satisfiable");
      bad.headers.emplace_back("Content-Range", "bytes */" + std::to_string(size));
      return bad;
    }
    case RangeKind::kSatisfiable:
      r.status = 206;
      r.headers.emplace_back("Content-Range", "bytes " + std::to_string(first) + "-" +
                                                  std::to_string(first + length - 1) + "/" +
                                                  std::to_string(size));
      break;
  }
  r.file_fd = fd;
  r.file_offset = first;
  r.file_length = length;
  return r;
}

}  // namespace treering::net
