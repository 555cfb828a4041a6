// Request latency on one keep-alive connection to the file server (`treering-data serve`): the
// loader sends several Range GETs per connection (line starts while planning, a counts query and a
// read per chunk), so a stall per request multiplies by the number of chunks. Linux delays an ACK
// by at least 40 ms (TCP_DELACK_MIN); a reply that waits for one shows as >= 40 ms here, where a
// loopback request otherwise takes well under a millisecond.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "net/file_server.h"
#include "temp_dir.h"

namespace treering::net {
namespace {

using Clock = std::chrono::steady_clock;
using treering::testing::TempDir;

// A client as the loader is one: TCP_NODELAY on its side, requests one after another on one
// connection, each reply read to its end before the next request.
class KeepAliveClient {
 public:
  explicit KeepAliveClient(std::uint16_t port) : fd_(socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    const int one = 1;
    setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  ~KeepAliveClient() { close(fd_); }
  bool connected() const { return connected_; }

  // Sends `request` and reads the reply: its status line, "" on failure or after 5 s.
  std::string Exchange(const std::string& request) {
    if (send(fd_, request.data(), request.size(), MSG_NOSIGNAL) !=
        static_cast<ssize_t>(request.size())) {
      return "";
    }
    std::string reply;
    const Clock::time_point deadline = Clock::now() + std::chrono::seconds(5);
    std::size_t header_end = std::string::npos;
    std::size_t length = 0;
    while (Clock::now() < deadline) {
      if (header_end != std::string::npos && reply.size() >= header_end + length) break;
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, 100) <= 0) continue;
      char block[65536];
      const ssize_t r = recv(fd_, block, sizeof block, 0);
      if (r <= 0) return "";
      reply.append(block, static_cast<std::size_t>(r));
      if (header_end == std::string::npos && (header_end = reply.find("\r\n\r\n")) != reply.npos) {
        header_end += 4;
        const std::size_t at = reply.find("Content-Length: ");
        if (at == std::string::npos || at > header_end) return "";
        length = std::stoul(reply.substr(at + 16));
      }
    }
    if (header_end == std::string::npos || reply.size() != header_end + length) return "";
    return reply.substr(0, reply.find("\r\n"));
  }

 private:
  int fd_;
  bool connected_ = false;
};

// A quiet server (no access log) of the files in `dir`; its one query, ?counts, answers a small
// JSON body as data's counting query does (data/data_queries.h), sent with its header in one go.
auto StartServer(const TempDir& dir) {
  FileServerOptions options;
  options.dir = dir.path();
  options.access_log = false;
  options.queries = [](const FileQuery&) {
    return JsonReply(R"({"rows": 2048, "entries": 4096, "has_weight": false, "has_qid": false})");
  };
  return FileServer::Start(options);
}

// One request and the status line its reply must carry.
struct Request {
  std::string text;
  std::string status;
};

// Serves `dir`, sends `rounds` rounds of requests (round i is `round(i)`) on one keep-alive
// connection and sets `median_ms` to the median round's time, so a few slow rounds on a busy
// machine do not decide. A failed start or an unexpected reply fails the test.
void TimeRounds(const TempDir& dir, int rounds,
                const std::function<std::vector<Request>(int)>& round, double* median_ms) {
  auto server = StartServer(dir);
  ASSERT_TRUE(server.ok()) << server.status().message();
  KeepAliveClient client((*server)->port());
  ASSERT_TRUE(client.connected());
  std::vector<double> ms;
  for (int i = 0; i < rounds; ++i) {
    const std::vector<Request> requests = round(i);
    const Clock::time_point start = Clock::now();
    for (const Request& r : requests) ASSERT_EQ(client.Exchange(r.text), r.status) << r.text;
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  std::sort(ms.begin(), ms.end());
  *median_ms = ms[ms.size() / 2];
}

std::string RangeGet(const std::string& target, std::size_t first, std::size_t last) {
  return "GET " + target + " HTTP/1.1\r\nHost: x\r\nRange: bytes=" + std::to_string(first) + "-" +
         std::to_string(last) + "\r\n\r\n";
}

// A file body goes out with sendfile after the header: without TCP_NODELAY on the server's
// side, Nagle held the body until the client acknowledged the header, ~40 ms per request.
TEST(HttpKeepAlive, RangeRepliesDoNotWaitForDelayedAcks) {
  TempDir dir;
  dir.Write("f", std::string(256 * 1024, 'x'));
  double median_ms = 0;
  ASSERT_NO_FATAL_FAILURE(TimeRounds(
      dir, 16,
      [](int i) {
        return std::vector<Request>{
            {RangeGet("/f", i * 16384, i * 16384 + 16383), "HTTP/1.1 206 Partial Content"}};
      },
      &median_ms));
  EXPECT_LT(median_ms, 20.0) << "a range reply waited for a delayed ACK";
}

// The counts answer is one send (header and JSON together), but it follows a body on the same
// connection: it must not wait either.
TEST(HttpKeepAlive, CountsAfterRangeDoNotWait) {
  TempDir dir;
  std::string text;
  while (text.size() < 64 * 1024) text += "1 0:0.5 3:1.25\n";
  dir.Write("f", text);
  double median_ms = 0;
  ASSERT_NO_FATAL_FAILURE(TimeRounds(
      dir, 8,
      [](int) {
        return std::vector<Request>{{RangeGet("/f?counts", 0, 32767), "HTTP/1.1 200 OK"},
                                    {RangeGet("/f", 0, 32767), "HTTP/1.1 206 Partial Content"}};
      },
      &median_ms));
  EXPECT_LT(median_ms, 20.0) << "a counts or range reply waited for a delayed ACK";
}

}  // namespace
}  // namespace treering::net
