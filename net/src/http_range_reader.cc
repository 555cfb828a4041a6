#include "net/http_range_reader.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include <boost/beast/http.hpp>

namespace treering::net {
namespace {

namespace http = boost::beast::http;

constexpr std::size_t kMaxReplyHeader = 16 * 1024;
constexpr std::size_t kMaxQueryBody = 64 * 1024;
constexpr auto kConnectTimeout = std::chrono::seconds(10);
constexpr auto kRequestTimeout = std::chrono::seconds(60);
// Delay before each retry: the first is immediate (a keep-alive connection the server closed
// while idle), then backing off to ~7 s in all, long enough for a restarted server.
constexpr int kRetryDelaysMs[] = {0, 100, 200, 400, 800, 1600, 2000, 2000};

Result<std::string> ReadToken() {
  if (const char* token = std::getenv("TREERING_DATA_TOKEN"); token != nullptr && *token) {
    return std::string(token);
  }
  const char* file = std::getenv("TREERING_DATA_TOKEN_FILE");
  if (file == nullptr || *file == '\0') return std::string();
  std::ifstream in(file);
  std::string token;
  if (!in || !std::getline(in, token)) {
    return Status::InvalidInput(std::string("TREERING_DATA_TOKEN_FILE=") + file +
                                ": cannot read the token");
  }
  while (!token.empty() && std::isspace(static_cast<unsigned char>(token.back()))) {
    token.pop_back();
  }
  return token;
}

// "bytes FIRST-LAST/TOTAL" -> FIRST; false when malformed.
bool ContentRangeFirst(const std::string& value, std::uint64_t* first) {
  if (value.rfind("bytes ", 0) != 0) return false;
  const char* begin = value.data() + 6;
  const auto [next, ec] = std::from_chars(begin, value.data() + value.size(), *first);
  return ec == std::errc() && next != begin && *next == '-';
}

}  // namespace

struct HttpRangeReader::Reply {
  unsigned status = 0;
  std::string reason;
  bool has_length = false;
  std::uint64_t content_length = 0;
  bool keep_alive = false;
  std::string etag;
  std::string content_range;
  std::string content_type;
};

bool IsRetryable(const Status& status) {
  return status.code() == StatusCode::kNetwork || status.code() == StatusCode::kTimeout;
}

Result<HttpRangeReader> HttpRangeReader::Create(const std::string& url, std::string etag) {
  Result<HttpUrl> parsed = ParseHttpUrl(url);
  if (!parsed.ok()) return parsed.status();
  Result<std::string> token = ReadToken();
  if (!token.ok()) return token.status();
  return HttpRangeReader(url, std::move(*parsed), std::move(*token), std::move(etag));
}

std::string HttpRangeReader::RequestHead(const char* method, const std::string& range,
                                         const std::string& query) const {
  const std::string target = EncodeTarget(parsed_.path) + (query.empty() ? "" : "?" + query);
  std::string head = std::string(method) + " " + target + " HTTP/1.1\r\n";
  head += "Host: " + parsed_.host + ":" + std::to_string(parsed_.port) + "\r\n";
  head += "User-Agent: treering\r\n";
  if (!range.empty()) head += "Range: " + range + "\r\n";
  if (!etag_.empty()) head += "If-Match: " + etag_ + "\r\n";
  if (!token_.empty()) head += "Authorization: Bearer " + token_ + "\r\n";
  return head + "\r\n";
}

Status HttpRangeReader::HttpError(unsigned status, const std::string& reason) const {
  const std::string what = url_ + ": HTTP " + std::to_string(status) + " " + reason;
  if (status == 401) {
    return Status::InvalidInput(
        what + (token_.empty() ? " (the server wants a token: set TREERING_DATA_TOKEN or "
                                 "TREERING_DATA_TOKEN_FILE)"
                               : " (the server refused the token in the environment)"));
  }
  if (status == 412) {
    return Status::IoError(url_ + ": the file changed on the server during the load (HTTP 412 " +
                           reason + ": ETag " + etag_ + " no longer matches)");
  }
  if (status >= 500) return Status::Network(what);  // worth retrying
  if (status == 403 || status == 404) return Status::InvalidInput(what);
  return Status::IoError(what);
}

Status HttpRangeReader::ReadReplyHeader(Reply* reply) {
  const Clock::time_point deadline = Clock::now() + kRequestTimeout;
  http::response_parser<http::empty_body> parser;
  parser.header_limit(kMaxReplyHeader);
  parser.eager(false);
  while (true) {
    if (!pending_.empty()) {
      boost::beast::error_code ec;
      const std::size_t used = parser.put(boost::asio::buffer(pending_), ec);
      pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(used));
      if (parser.is_header_done()) break;
      if (ec && ec != http::error::need_more) {
        return Status::Network(url_ + ": bad HTTP reply header: " + ec.message());
      }
    }
    char block[16384];
    Result<std::size_t> got = socket_.RecvSome(block, sizeof block, deadline);
    if (!got.ok()) return got.status().WithContext(url_);
    if (*got == 0) return Status::Network(url_ + ": the server closed the connection");
    pending_.insert(pending_.end(), block, block + *got);
  }
  const auto& res = parser.get();
  reply->status = res.result_int();
  reply->reason = std::string(res.reason());
  reply->keep_alive = res.keep_alive();
  if (parser.content_length()) {
    reply->has_length = true;
    reply->content_length = *parser.content_length();
  }
  reply->etag = std::string(res[http::field::etag]);
  reply->content_range = std::string(res[http::field::content_range]);
  reply->content_type = std::string(res[http::field::content_type]);
  return Status::Ok();
}

Result<RemoteFileInfo> HttpRangeReader::TryStat() {
  if (!socket_.open()) {
    Result<TcpSocket> socket =
        ConnectTcp(parsed_.host, parsed_.port, Clock::now() + kConnectTimeout);
    if (!socket.ok()) return socket.status().WithContext(url_);
    socket_ = std::move(*socket);
    pending_.clear();
  }
  const std::string head = RequestHead("HEAD", "");
  if (Status s = socket_.SendAll(head.data(), head.size(), Clock::now() + kRequestTimeout);
      !s.ok()) {
    return s.WithContext(url_);
  }
  Reply reply;
  if (Status s = ReadReplyHeader(&reply); !s.ok()) return s;
  if (!reply.keep_alive) socket_.Close();
  if (reply.status != 200) return HttpError(reply.status, reply.reason);
  if (!reply.has_length) return Status::IoError(url_ + ": the server sent no Content-Length");
  return RemoteFileInfo{reply.content_length, reply.etag};
}

Result<RemoteFileInfo> HttpRangeReader::Stat() {
  for (int attempt = 0;; ++attempt) {
    Result<RemoteFileInfo> info = TryStat();
    if (info.ok() || !IsRetryable(info.status())) return info;
    if (attempt + 1 >= static_cast<int>(std::size(kRetryDelaysMs))) {
      return Status(StatusCode::kIoError, info.status().message() + " (after " +
                                              std::to_string(attempt + 1) + " attempts)");
    }
    socket_.Close();
    std::this_thread::sleep_for(std::chrono::milliseconds(kRetryDelaysMs[attempt + 1]));
  }
}

Status HttpRangeReader::StartRange(std::uint64_t first, std::uint64_t last) {
  stream_left_ = 0;
  if (!socket_.open()) {
    Result<TcpSocket> socket =
        ConnectTcp(parsed_.host, parsed_.port, Clock::now() + kConnectTimeout);
    if (!socket.ok()) return socket.status().WithContext(url_);
    socket_ = std::move(*socket);
    pending_.clear();
  }
  const std::string range = "bytes=" + std::to_string(first) + "-" + std::to_string(last);
  const std::string head = RequestHead("GET", range);
  if (Status s = socket_.SendAll(head.data(), head.size(), Clock::now() + kRequestTimeout);
      !s.ok()) {
    return s.WithContext(url_);
  }
  Reply reply;
  if (Status s = ReadReplyHeader(&reply); !s.ok()) return s;
  if (reply.status == 416) {  // `first` at or past the end: nothing to read
    socket_.Close();
    return Status::Ok();
  }
  if (reply.status != 206 && !(reply.status == 200 && first == 0)) {
    socket_.Close();
    return HttpError(reply.status, reply.reason);
  }
  std::uint64_t begin = 0;
  if (reply.status == 206 && (!ContentRangeFirst(reply.content_range, &begin) || begin != first)) {
    socket_.Close();
    return Status::Network(url_ + ": reply for the wrong range: '" + reply.content_range + "'");
  }
  if (!reply.has_length) {
    socket_.Close();
    return Status::IoError(url_ + ": the server sent no Content-Length");
  }
  stream_pos_ = first;
  stream_left_ = reply.content_length;
  stream_keep_alive_ = reply.keep_alive;
  return Status::Ok();
}

Status HttpRangeReader::TryRange(std::uint64_t offset, char* buffer, std::size_t n,
                                 std::size_t* got) {
  *got = 0;
  if (stream_left_ == 0 || stream_pos_ != offset) {
    if (stream_left_ > 0) socket_.Close();  // the rest of that reply is not wanted
    const std::uint64_t end = std::max<std::uint64_t>(offset + n, window_end_);
    if (Status s = StartRange(offset, end - 1); !s.ok()) return s;
    if (stream_left_ == 0) return Status::Ok();  // end of file
  }
  const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(n, stream_left_));
  const std::size_t from_pending = std::min(want, pending_.size());
  std::memcpy(buffer, pending_.data(), from_pending);
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(from_pending));
  *got = from_pending;
  const Clock::time_point deadline = Clock::now() + kRequestTimeout;
  Status status = Status::Ok();
  while (*got < want) {
    Result<std::size_t> r = socket_.RecvSome(buffer + *got, want - *got, deadline);
    if (!r.ok() || *r == 0) {
      status = r.ok() ? Status::Network(url_ + ": the connection closed " +
                                        std::to_string(stream_left_ - *got) +
                                        " bytes before the end of the reply")
                      : r.status().WithContext(url_);
      break;
    }
    *got += *r;
  }
  stream_pos_ += *got;
  stream_left_ -= *got;
  if (!status.ok()) {
    socket_.Close();
    stream_left_ = 0;
  } else if (stream_left_ == 0 && !stream_keep_alive_) {
    socket_.Close();
  }
  return status;
}

void HttpRangeReader::WillRead(std::uint64_t end) { window_end_ = end; }

Status HttpRangeReader::Connect() {
  if (stream_left_ > 0) socket_.Close();  // the rest of an open reply is not wanted
  stream_left_ = 0;
  if (socket_.open()) return Status::Ok();
  Result<TcpSocket> socket = ConnectTcp(parsed_.host, parsed_.port, Clock::now() + kConnectTimeout);
  if (!socket.ok()) return socket.status().WithContext(url_);
  socket_ = std::move(*socket);
  pending_.clear();
  return Status::Ok();
}

Result<QueryReply> HttpRangeReader::TryQuery(const std::string& query, const std::string& range) {
  if (Status s = Connect(); !s.ok()) return s;
  const std::string head = RequestHead("GET", range, query);
  const Clock::time_point deadline = Clock::now() + kRequestTimeout;
  if (Status s = socket_.SendAll(head.data(), head.size(), deadline); !s.ok()) {
    return s.WithContext(url_);
  }
  Reply reply;
  if (Status s = ReadReplyHeader(&reply); !s.ok()) return s;
  if (!reply.has_length || reply.content_length > kMaxQueryBody) {
    socket_.Close();  // not an answer to this query (a server that ignored it, say)
    return QueryReply{reply.status, reply.content_type, ""};
  }
  std::string body(pending_.begin(),
                   pending_.begin() + static_cast<std::ptrdiff_t>(std::min<std::uint64_t>(
                                          pending_.size(), reply.content_length)));
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(body.size()));
  while (body.size() < reply.content_length) {
    char block[16384];
    const std::size_t want =
        std::min<std::size_t>(sizeof block, reply.content_length - body.size());
    Result<std::size_t> got = socket_.RecvSome(block, want, deadline);
    if (!got.ok()) return got.status().WithContext(url_);
    if (*got == 0) return Status::Network(url_ + ": the server closed the connection");
    body.append(block, *got);
  }
  if (!reply.keep_alive) socket_.Close();
  if (reply.status >= 500) return HttpError(reply.status, reply.reason);  // retried
  return QueryReply{reply.status, reply.content_type, std::move(body)};
}

Result<QueryReply> HttpRangeReader::Query(const std::string& query, std::uint64_t first,
                                          std::uint64_t last) {
  const std::string range = "bytes=" + std::to_string(first) + "-" + std::to_string(last);
  for (int attempt = 0;; ++attempt) {
    Result<QueryReply> reply = TryQuery(query, range);
    if (reply.ok() || !IsRetryable(reply.status())) return reply;
    socket_.Close();
    if (attempt + 1 >= static_cast<int>(std::size(kRetryDelaysMs))) {
      return Status(StatusCode::kIoError, reply.status().message() + " (after " +
                                              std::to_string(attempt + 1) + " attempts)");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(kRetryDelaysMs[attempt + 1]));
  }
}

Status HttpRangeReader::ReadAt(std::uint64_t offset, char* buffer, std::size_t n,
                               std::size_t* got) {
  *got = 0;
  int attempt = 0;
  while (*got < n) {
    std::size_t part = 0;
    const std::size_t want = n - *got;
    Status s = TryRange(offset + *got, buffer + *got, want, &part);
    *got += part;
    if (s.ok()) {
      if (part == 0) return Status::Ok();  // end of file
      continue;
    }
    // Progress (the connection broke mid-body) starts the count again: resume at once from
    // the last byte received.
    attempt = part > 0 ? 0 : attempt + 1;
    if (!IsRetryable(s)) return s;
    if (attempt >= static_cast<int>(std::size(kRetryDelaysMs))) {
      return Status(StatusCode::kIoError,
                    s.message() + " (after " + std::to_string(attempt) + " attempts)");
    }
    socket_.Close();
    std::this_thread::sleep_for(std::chrono::milliseconds(kRetryDelaysMs[attempt]));
  }
  return Status::Ok();
}

}  // namespace treering::net
