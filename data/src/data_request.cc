#include "data_request.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <ctime>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "csv_parser.h"
#include "data/load.h"
#include "http_url.h"
#include "libsvm_parser.h"
#include "opened_file.h"
#include "served_path.h"

namespace treering::data::detail {
namespace {

DataResponse Error(unsigned status, const std::string& message) {
  DataResponse r;
  r.status = status;
  r.body = nlohmann::json{{"error", message}}.dump() + "\n";
  r.headers.emplace_back("Content-Type", "application/json");
  return r;
}

DataResponse Json(const nlohmann::json& body) {
  DataResponse r;
  r.body = body.dump(1) + "\n";
  r.headers.emplace_back("Content-Type", "application/json");
  return r;
}

// Strong validator: changes whenever the file is replaced (inode), rewritten (mtime) or resized.
std::string ETagOf(const struct stat& info) {
  char text[80];
  const auto ns = static_cast<unsigned long long>(info.st_mtim.tv_sec) * 1000000000ull +
                  static_cast<unsigned long long>(info.st_mtim.tv_nsec);
  std::snprintf(text, sizeof text, "\"%llx-%llx-%llx\"",
                static_cast<unsigned long long>(info.st_size), ns,
                static_cast<unsigned long long>(info.st_ino));
  return text;
}

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

// If-Match: "*" or a list of ETags, one of which must be the current one.
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

}  // namespace

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

DataRequestHandler::DataRequestHandler(std::string root, std::string token, bool count_ranges)
    : root_(std::move(root)), token_(std::move(token)), count_ranges_(count_ranges) {}

bool DataRequestHandler::Authorized(const std::string& authorization) const {
  if (token_.empty()) return true;
  return SecretEquals(authorization, "Bearer " + token_);
}

DataResponse DataRequestHandler::Handle(const DataRequest& request) const {
  if (request.method != "GET" && request.method != "HEAD") {
    DataResponse r = Error(405, "read-only: only GET and HEAD");
    r.headers.emplace_back("Allow", "GET, HEAD");
    return r;
  }
  if (!Authorized(request.authorization)) {
    DataResponse r = Error(401, "missing or wrong bearer token");
    r.headers.emplace_back("WWW-Authenticate", "Bearer");
    return r;
  }
  if (request.target.empty() || request.target[0] != '/') return Error(400, "bad request target");
  const std::size_t question = request.target.find('?');
  const std::string query =
      question == std::string::npos ? "" : request.target.substr(question + 1);
  std::string path;
  if (!PercentDecode(request.target.substr(0, question), &path)) {
    return Error(400, "bad percent-encoding in the path");
  }
  DataResponse r;
  if (path == "/" && query.empty()) {
    r = Listing();
  } else {
    const ServedPath served = ResolveServedPath(root_, path);
    if (served.status != 200) return Error(served.status, served.error);
    if (query == "summary") {
      struct stat info {};
      if (stat(served.real_path.c_str(), &info) != 0) return Error(404, "no such file");
      r = Summary(path.substr(1), served.real_path, ETagOf(info));
    } else if (count_ranges_ && (query == "counts" || query.rfind("counts&", 0) == 0)) {
      r = Counts(request, served.real_path, query);
    } else if (!query.empty()) {
      return Error(400, "unknown query (known: summary, counts)");
    } else {
      r = File(request, served.real_path);
    }
  }
  r.head_only = request.method == "HEAD";
  return r;
}

DataResponse DataRequestHandler::Listing() const {
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
  return Json({{"files", files}});
}

DataResponse DataRequestHandler::Summary(const std::string& name, const std::string& real_path,
                                         const std::string& etag) const {
  const std::string key = real_path + " " + etag;
  {
    std::lock_guard<std::mutex> lock(summary_mutex_);
    if (auto it = summaries_.find(key); it != summaries_.end()) {
      DataResponse r = Json(nlohmann::json::parse(it->second));
      return r;
    }
  }
  const bool csv = name.size() > 4 && name.compare(name.size() - 4, 4, ".csv") == 0;
  Result<DMatrix> m = Load(real_path + (csv ? "?format=csv" : ""));
  if (!m.ok()) {
    std::string message = m.status().message();
    if (message.rfind(real_path, 0) == 0) message = name + message.substr(real_path.size());
    return Error(422, message);  // the server's own paths stay private
  }
  struct stat info {};
  stat(real_path.c_str(), &info);
  const nlohmann::json body = {{"name", name},
                               {"format", csv ? "csv" : "libsvm"},
                               {"bytes", static_cast<std::uint64_t>(info.st_size)},
                               {"rows", m->NumRows()},
                               {"columns", m->num_col},
                               {"non_zeros", m->NumNonZero()},
                               {"etag", etag}};
  std::lock_guard<std::mutex> lock(summary_mutex_);
  summaries_[key] = body.dump();
  return Json(body);
}

// GET FILE?counts[&format=csv&label_column=N] with a Range: the rows and entries of the lines
// in that range, counted exactly as the loader's counting pass counts them, so a worker's
// first pass moves a few bytes instead of its shard (docs/data.md, "Loading over HTTP").
DataResponse DataRequestHandler::Counts(const DataRequest& request, const std::string& real_path,
                                        const std::string& query) const {
  bool csv = false;
  std::uint64_t label_column = 0;
  std::size_t start = query.find('&');
  while (start != std::string::npos) {
    const std::size_t stop = query.find('&', start + 1);
    const std::string option = query.substr(start + 1, stop - start - 1);
    if (option == "format=csv" || option == "format=libsvm") {
      csv = option == "format=csv";
    } else if (option.rfind("label_column=", 0) != 0 ||
               !ParseNumber(std::string_view(option).substr(13), &label_column)) {
      return Error(400, "unknown counts option (known: format=libsvm|csv, label_column=N)");
    }
    start = stop;
  }
  struct stat before {};
  if (stat(real_path.c_str(), &before) != 0 || !S_ISREG(before.st_mode)) {
    return Error(404, "not a regular file");
  }
  const std::string etag = ETagOf(before);
  if (!IfMatchHolds(request.if_match, etag)) {
    DataResponse r = Error(412, "the file changed (ETag is now " + etag + ")");
    r.headers.emplace_back("ETag", etag);
    return r;
  }
  std::uint64_t first = 0;
  std::uint64_t length = 0;
  const auto size = static_cast<std::uint64_t>(before.st_size);
  if (ParseRange(request.range, size, &first, &length) != RangeKind::kSatisfiable) {
    return Error(416, "counts needs one satisfiable byte range");
  }
  Result<OpenedFile> file = OpenedFile::Open(real_path);
  if (!file.ok()) return Error(404, "cannot open");
  ChunkCounts counts;
  std::vector<char> buffer(1 << 20);
  const Status read = ForEachLineBlock(*file, first, first + length, buffer,
                                       [&](std::string_view text, std::uint64_t) {
                                         if (csv) {
                                           CountCsv(text, label_column, &counts);
                                         } else {
                                           CountLibsvm(text, &counts);
                                         }
                                         return true;
                                       });
  if (!read.ok()) return Error(500, "read failed");
  struct stat after {};
  if (stat(real_path.c_str(), &after) != 0 || ETagOf(after) != etag) {
    return Error(412, "the file changed while being counted");
  }
  DataResponse r = Json({{"rows", counts.rows},
                         {"entries", counts.entries},
                         {"has_weight", counts.has_weight},
                         {"has_qid", counts.has_qid}});
  r.headers.emplace_back("ETag", etag);
  return r;
}

DataResponse DataRequestHandler::File(const DataRequest& request,
                                      const std::string& real_path) const {
  const int fd = open(real_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Error(404, "cannot open");
  struct stat info {};
  if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    close(fd);
    return Error(404, "not a regular file");
  }
  const auto size = static_cast<std::uint64_t>(info.st_size);
  const std::string etag = ETagOf(info);
  if (!IfMatchHolds(request.if_match, etag)) {
    close(fd);
    DataResponse r = Error(412, "the file changed (ETag is now " + etag + ")");
    r.headers.emplace_back("ETag", etag);
    return r;
  }
  DataResponse r;
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
      DataResponse bad = Error(416, "range not satisfiable");
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

}  // namespace treering::data::detail
