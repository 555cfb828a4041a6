// Reading byte ranges of a file served by `treering-data serve` (or any HTTP/1.1 server with
// Range support): the remote counterpart of OpenedFile::ReadAt.
//
// Contract: one reader per thread (it keeps one keep-alive connection). Every GET carries
// If-Match with the ETag seen when the file was first stat'ed, so a file replaced or appended to
// during a job fails the load (HTTP 412) instead of mixing two versions into one shard. A broken
// connection, a short body or a 5xx is retried with a new connection from the last byte received
// (a few attempts over ~7 s, so a restarted server is picked up); other statuses fail at once
// with a message naming the URL and the status. The bearer token comes from the environment
// (TREERING_DATA_TOKEN, or the file named by TREERING_DATA_TOKEN_FILE), never from the URI.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "net/http_url.h"
#include "net/tcp_socket.h"

namespace treering::net {

struct RemoteFileInfo {
  std::uint64_t size = 0;
  std::string etag;  // as the server sent it, quotes included; empty when it sent none
};

// A small answer to a GET with a query (at most kMaxQueryBody bytes), whatever its status.
struct QueryReply {
  unsigned status = 0;
  std::string content_type;
  std::string body;
};

class HttpRangeReader {
 public:
  // Checks the URL and reads the token; no request yet.
  static Result<HttpRangeReader> Create(const std::string& url, std::string etag = "");

  const std::string& url() const { return url_; }

  // HEAD: the file's size and ETag.
  Result<RemoteFileInfo> Stat();

  // Reads up to n bytes at `offset`; *got < n only at end of file. Reads that follow each other
  // are served from one reply, which covers up to the end given to WillRead.
  Status ReadAt(std::uint64_t offset, char* buffer, std::size_t n, std::size_t* got);

  // GET of the file with `query` (e.g. "counts") and a Range of [first, last]: the reply as
  // it came, for the caller to judge. Connection trouble and 5xx are retried as in ReadAt.
  Result<QueryReply> Query(const std::string& query, std::uint64_t first, std::uint64_t last);

  // The next reads go in order up to `end`: ask for all of it in one request, so a chunk costs
  // one round trip instead of one per block (each costs milliseconds on a busy machine).
  void WillRead(std::uint64_t end);

 private:
  struct Reply;
  HttpRangeReader(std::string url, HttpUrl parsed, std::string token, std::string etag)
      : url_(std::move(url)),
        parsed_(std::move(parsed)),
        token_(std::move(token)),
        etag_(std::move(etag)) {}

  std::string RequestHead(const char* method, const std::string& range,
                          const std::string& query = "") const;
  Status Connect();
  Result<QueryReply> TryQuery(const std::string& query, const std::string& range);
  Status ReadReplyHeader(Reply* reply);
  Status StartRange(std::uint64_t first, std::uint64_t last);
  Status TryRange(std::uint64_t offset, char* buffer, std::size_t n, std::size_t* got);
  Result<RemoteFileInfo> TryStat();
  Status HttpError(unsigned status, const std::string& reason) const;

  std::string url_;
  HttpUrl parsed_;
  std::string token_;
  std::string etag_;
  TcpSocket socket_;
  std::vector<char> pending_;      // bytes received after a reply's header, not yet consumed
  std::uint64_t stream_pos_ = 0;   // file offset of the open reply's next body byte
  std::uint64_t stream_left_ = 0;  // body bytes of the open reply not yet read
  bool stream_keep_alive_ = false;
  std::uint64_t window_end_ = 0;  // from WillRead
};

// Whether a failed request is worth another attempt (connection trouble, 5xx), as opposed to
// an answer that will not change (404, 401, 412).
bool IsRetryable(const Status& status);

}  // namespace treering::net
