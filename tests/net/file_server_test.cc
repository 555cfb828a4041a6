// The file server (net/file_server.h) on loopback, driven with raw bytes: paths that leave the
// served directory, RFC 9110 ranges, queries handed to the program's handler, garbage and
// oversized headers, and the connection limit. Loading through it is tested in tests/data.
#include "net/file_server.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "raw_http.h"
#include "temp_dir.h"

namespace treering::net {
namespace {

using treering::testing::ConnectLoopback;
using treering::testing::RawExchange;
using treering::testing::StatusLine;
using treering::testing::TempDir;

FileServerOptions ServeOptions(const std::string& dir) {
  FileServerOptions options;
  options.dir = dir;
  return options;
}

std::unique_ptr<FileServer> StartServer(FileServerOptions options) {
  options.access_log = false;
  auto server = FileServer::Start(options);
  if (!server.ok()) throw std::runtime_error(server.status().message());
  return std::move(*server);
}

TEST(FileServer, RefusesPathsOutOfTheDirectory) {
  TempDir outside;
  outside.Write("secret", "TOPSECRET\n");
  TempDir dir;
  dir.Write("train.libsvm", "1 0:1\n");
  std::filesystem::create_directory(std::filesystem::path(dir.path()) / "sub");
  std::filesystem::create_symlink(std::filesystem::path(outside.path()) / "secret",
                                  std::filesystem::path(dir.path()) / "link");
  std::filesystem::create_directory_symlink(outside.path(),
                                            std::filesystem::path(dir.path()) / "sub" / "up");
  auto server = StartServer(ServeOptions(dir.path()));
  const std::string secret_rel = "../" + std::filesystem::path(outside.path()).filename().string() +
                                 "/secret";  // both dirs live in /tmp
  for (const std::string& target :
       {"/" + secret_rel, "/sub/../" + secret_rel,
        "/%2e%2e/" + std::filesystem::path(outside.path()).filename().string() + "/secret",
        "/%2E%2E%2f" + std::filesystem::path(outside.path()).filename().string() + "%2fsecret",
        std::string("/link"), std::string("/sub/up/secret"),
        "http://x" + outside.path() + "/secret", outside.path() + "/secret",
        std::string("/./train.libsvm"), std::string("/%00train.libsvm"),
        std::string("/train.libsvm%")}) {
    const std::string reply =
        RawExchange(server->port(), "GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n");
    SCOPED_TRACE(target);
    const std::string status = StatusLine(reply);
    EXPECT_TRUE(status == "HTTP/1.1 400 Bad Request" || status == "HTTP/1.1 403 Forbidden" ||
                status == "HTTP/1.1 404 Not Found")
        << status;
    EXPECT_EQ(reply.find("TOPSECRET"), std::string::npos);
  }
  // The listing leaves the symlinks out too.
  const std::string listing = RawExchange(server->port(), "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_NE(listing.find("\"train.libsvm\""), std::string::npos) << listing;
  EXPECT_EQ(listing.find("secret"), std::string::npos) << listing;
}

TEST(FileServer, RangesFollowRfc9110) {
  TempDir dir;
  dir.Write("f", "0123456789");
  auto server = StartServer(ServeOptions(dir.path()));
  auto get = [&](const std::string& range) {
    return RawExchange(server->port(),
                       "GET /f HTTP/1.1\r\nHost: x\r\nRange: " + range + "\r\n\r\n");
  };
  std::string r = get("bytes=2-4");
  EXPECT_EQ(StatusLine(r), "HTTP/1.1 206 Partial Content");
  EXPECT_NE(r.find("Content-Range: bytes 2-4/10\r\n"), std::string::npos);
  EXPECT_EQ(r.substr(r.size() - 3), "234");
  r = get("bytes=-3");
  EXPECT_EQ(r.substr(r.size() - 3), "789");
  r = get("bytes=7-");
  EXPECT_NE(r.find("Content-Range: bytes 7-9/10\r\n"), std::string::npos);
  r = get("bytes=8-100");
  EXPECT_EQ(r.substr(r.size() - 2), "89");
  r = get("bytes=10-");
  EXPECT_EQ(StatusLine(r), "HTTP/1.1 416 Range Not Satisfiable");
  EXPECT_NE(r.find("Content-Range: bytes */10\r\n"), std::string::npos);
  r = get("bytes=1-2,4-5");  // several ranges: ignored, the whole file
  EXPECT_EQ(StatusLine(r), "HTTP/1.1 200 OK");
  EXPECT_EQ(r.substr(r.size() - 10), "0123456789");
  r = RawExchange(server->port(), "GET /f HTTP/1.1\r\nHost: x\r\nIf-Match: \"nope\"\r\n\r\n");
  EXPECT_EQ(StatusLine(r), "HTTP/1.1 412 Precondition Failed");
  r = RawExchange(server->port(), "PUT /f HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\nx");
  EXPECT_EQ(StatusLine(r), "HTTP/1.1 405 Method Not Allowed");
}

// Queries go to the program's handler (data's ?summary and ?counts); without one, each is 400.
TEST(FileServer, QueriesGoToTheHandler) {
  TempDir dir;
  dir.Write("f", "0123456789");
  auto plain = StartServer(ServeOptions(dir.path()));
  std::string r = RawExchange(plain->port(), "GET /f?summary HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(StatusLine(r), "HTTP/1.1 400 Bad Request");
  FileServerOptions options = ServeOptions(dir.path());
  options.queries = [](const FileQuery& q) {
    return JsonReply("{\"name\": \"" + q.name + "\", \"query\": \"" + q.query + "\"}");
  };
  auto server = StartServer(options);
  r = RawExchange(server->port(), "GET /f?x&y=1 HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(StatusLine(r), "HTTP/1.1 200 OK");
  EXPECT_NE(r.find("{\"name\": \"f\", \"query\": \"x&y=1\"}\n"), std::string::npos) << r;
  // The path is checked before the handler sees it.
  r = RawExchange(server->port(), "GET /../f?x HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(StatusLine(r), "HTTP/1.1 403 Forbidden");
}

TEST(FileServer, SurvivesGarbageAndBoundsHeaders) {
  TempDir dir;
  dir.Write("f", "1 0:1\n");
  FileServerOptions options = ServeOptions(dir.path());
  options.header_timeout_s = 0.5;
  auto server = StartServer(options);
  std::mt19937_64 rng(7);
  const std::string good = "GET /f HTTP/1.1\r\nHost: x\r\nRange: bytes=0-1\r\n\r\n";
  const auto stop = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  int sent = 0;
  while (std::chrono::steady_clock::now() < stop) {
    std::string bytes = good;
    for (int m = static_cast<int>(rng() % 6); m >= 0; --m) {
      const std::size_t at = rng() % (bytes.size() + 1);
      switch (rng() % 3) {
        case 0:
          bytes.insert(at, 1, static_cast<char>(rng()));
          break;
        case 1:
          if (at < bytes.size()) bytes.erase(at, 1);
          break;
        default:
          bytes.insert(at, std::string(rng() % 64, static_cast<char>(rng())));
          break;
      }
    }
    if (rng() % 8 == 0) bytes = std::string(rng() % 3000, static_cast<char>(rng()));
    const std::string reply = RawExchange(server->port(), bytes);
    if (!reply.empty()) {
      EXPECT_EQ(reply.rfind("HTTP/1.1 ", 0), 0u) << reply;
    }
    ++sent;
  }
  EXPECT_GT(sent, 20);
  EXPECT_EQ(StatusLine(RawExchange(
                server->port(), "GET /f HTTP/1.1\r\nX: " + std::string(10000, 'a') + "\r\n\r\n")),
            "HTTP/1.1 431 Request Header Fields Too Large");
  // A client that sends half a header and waits is cut off after the header timeout.
  const auto start = std::chrono::steady_clock::now();
  const int fd = ConnectLoopback(server->port());
  ASSERT_GE(fd, 0);
  (void)!send(fd, "GET /f HTTP/1.1\r\n", 17, MSG_NOSIGNAL);
  char byte;
  EXPECT_EQ(recv(fd, &byte, 1, 0), 0);  // closed by the server
  close(fd);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3));
  EXPECT_EQ(StatusLine(RawExchange(server->port(), good)), "HTTP/1.1 206 Partial Content");
}

// Connections beyond the limit get 503 and are closed; the server answers again once one of
// the held connections goes.
TEST(FileServer, BoundsConnections) {
  TempDir dir;
  dir.Write("f", "1 0:1\n");
  FileServerOptions options = ServeOptions(dir.path());
  options.max_connections = 2;
  auto server = StartServer(options);
  const std::string good = "GET /f HTTP/1.1\r\nHost: x\r\n\r\n";
  // Each held connection has had one request answered (so it was accepted) and stays open.
  auto open_held = [&] {
    const int fd = ConnectLoopback(server->port());
    EXPECT_GE(fd, 0);
    EXPECT_EQ(send(fd, good.data(), good.size(), MSG_NOSIGNAL), static_cast<ssize_t>(good.size()));
    char reply[512];
    pollfd p{fd, POLLIN, 0};
    EXPECT_EQ(poll(&p, 1, 5000), 1);
    EXPECT_GT(recv(fd, reply, sizeof reply, 0), 0);
    return fd;
  };
  const int a = open_held();
  const int b = open_held();
  EXPECT_EQ(StatusLine(RawExchange(server->port(), good)), "HTTP/1.1 503 Service Unavailable");
  close(a);
  close(b);
  std::string status;  // the server notices the closes and reaps within ~200 ms
  for (int i = 0; i < 50 && status != "HTTP/1.1 200 OK"; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    status = StatusLine(RawExchange(server->port(), good));
  }
  EXPECT_EQ(status, "HTTP/1.1 200 OK");
}

}  // namespace
}  // namespace treering::net
