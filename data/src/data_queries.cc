#include "data/data_queries.h"

#include <sys/stat.h>

#include <charconv>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "csv_parser.h"
#include "data/load.h"
#include "libsvm_parser.h"
#include "opened_file.h"

namespace treering::data {
namespace detail {
namespace {

bool ParseNumber(std::string_view text, std::uint64_t* value) {
  const auto [next, ec] = std::from_chars(text.data(), text.data() + text.size(), *value);
  return !text.empty() && ec == std::errc() && next == text.data() + text.size();
}

// The handler's state: the summaries already computed, per file and ETag.
class DataQueryHandler {
 public:
  explicit DataQueryHandler(bool count_ranges) : count_ranges_(count_ranges) {}
  net::FileResponse Handle(const net::FileQuery& q) const;

 private:
  net::FileResponse Summary(const std::string& name, const std::string& real_path,
                            const std::string& etag) const;
  net::FileResponse Counts(const net::FileRequest& request, const std::string& real_path,
                           const std::string& query) const;

  bool count_ranges_ = true;
  mutable std::mutex summary_mutex_;
  mutable std::map<std::string, std::string> summaries_;  // "path etag" -> JSON
};

net::FileResponse DataQueryHandler::Handle(const net::FileQuery& q) const {
  if (q.query == "summary") {
    struct stat info {};
    if (stat(q.real_path.c_str(), &info) != 0) return net::ErrorReply(404, "no such file");
    return Summary(q.name, q.real_path, net::ETagOf(info));
  }
  if (count_ranges_ && (q.query == "counts" || q.query.rfind("counts&", 0) == 0)) {
    return Counts(q.request, q.real_path, q.query);
  }
  return net::ErrorReply(400, "unknown query (known: summary, counts)");
}

net::FileResponse DataQueryHandler::Summary(const std::string& name, const std::string& real_path,
                                            const std::string& etag) const {
  const std::string key = real_path + " " + etag;
  {
    std::lock_guard<std::mutex> lock(summary_mutex_);
    if (auto it = summaries_.find(key); it != summaries_.end()) {
      return net::JsonReply(nlohmann::json::parse(it->second).dump(1));
    }
  }
  const bool csv = name.size() > 4 && name.compare(name.size() - 4, 4, ".csv") == 0;
  Result<DMatrix> m = Load(real_path + (csv ? "?format=csv" : ""));
  if (!m.ok()) {
    std::string message = m.status().message();
    if (message.rfind(real_path, 0) == 0) message = name + message.substr(real_path.size());
    return net::ErrorReply(422, message);  // the server's own paths stay private
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
  return net::JsonReply(body.dump(1));
}

// GET FILE?counts[&format=csv&label_column=N] with a Range: the rows and entries of the lines
// in that range, counted exactly as the loader's counting pass counts them, so a worker's
// first pass moves a few bytes instead of its shard (docs/data.md, "Loading over HTTP").
net::FileResponse DataQueryHandler::Counts(const net::FileRequest& request,
                                           const std::string& real_path,
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
      return net::ErrorReply(400,
                             "unknown counts option (known: format=libsvm|csv, label_column=N)");
    }
    start = stop;
  }
  struct stat before {};
  if (stat(real_path.c_str(), &before) != 0 || !S_ISREG(before.st_mode)) {
    return net::ErrorReply(404, "not a regular file");
  }
  const std::string etag = net::ETagOf(before);
  if (!net::IfMatchHolds(request.if_match, etag)) {
    net::FileResponse r = net::ErrorReply(412, "the file changed (ETag is now " + etag + ")");
    r.headers.emplace_back("ETag", etag);
    return r;
  }
  std::uint64_t first = 0;
  std::uint64_t length = 0;
  const auto size = static_cast<std::uint64_t>(before.st_size);
  if (net::ParseRange(request.range, size, &first, &length) != net::RangeKind::kSatisfiable) {
    return net::ErrorReply(416, "counts needs one satisfiable byte range");
  }
  Result<OpenedFile> file = OpenedFile::Open(real_path);
  if (!file.ok()) return net::ErrorReply(404, "cannot open");
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
  if (!read.ok()) return net::ErrorReply(500, "read failed");
  struct stat after {};
  if (stat(real_path.c_str(), &after) != 0 || net::ETagOf(after) != etag) {
    return net::ErrorReply(412, "the file changed while being counted");
  }
  net::FileResponse r = net::JsonReply(nlohmann::json{
      {"rows", counts.rows},
      {"entries", counts.entries},
      {"has_weight", counts.has_weight},
      {"has_qid", counts.has_qid}}.dump(1));
  r.headers.emplace_back("ETag", etag);
  return r;
}

}  // namespace
}  // namespace detail

net::QueryHandler DataQueries(bool count_ranges) {
  auto handler = std::make_shared<const detail::DataQueryHandler>(count_ranges);
  return [handler](const net::FileQuery& q) { return handler->Handle(q); };
}

}  // namespace treering::data
