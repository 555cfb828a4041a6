// The sockets and threads of the file server: one accept thread, one thread per connection
// (bounded), requests parsed by Beast, answers decided by FileRequestHandler, file bodies sent
// with sendfile(2).
#include "net/file_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <list>
#include <mutex>
#include <sstream>
#include <thread>

#include <boost/beast/http.hpp>

#include "net/file_request.h"
#include "net/tcp_socket.h"

namespace treering::net {

namespace http = boost::beast::http;

namespace {

constexpr std::size_t kMaxRequestHeader = 8 * 1024;

Clock::duration Seconds(double s) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

// The request target as the log shows it: control bytes escaped, cut at 200 bytes.
std::string Printable(const std::string& text) {
  std::string out;
  for (const char ch : text.substr(0, 200)) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c >= 0x7f) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\x%02x", c);
      out += esc;
    } else {
      out += ch;
    }
  }
  return out;
}

std::string PeerName(int fd) {
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  char host[NI_MAXHOST] = "?";
  char port[NI_MAXSERV] = "?";
  if (getpeername(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    getnameinfo(reinterpret_cast<sockaddr*>(&addr), len, host, sizeof host, port, sizeof port,
                NI_NUMERICHOST | NI_NUMERICSERV);
  }
  return std::string(host) + ":" + port;
}

}  // namespace

struct FileServer::Impl {
  FileServerOptions options;
  FileRequestHandler handler;
  TcpSocket listener;
  std::uint16_t port = 0;
  std::atomic<bool> stopping{false};
  std::atomic<int> drops_left{0};
  std::thread acceptor;

  struct Connection {
    std::thread thread;
    std::atomic<bool> done{false};
    int fd = -1;
  };
  std::mutex connections_mutex;
  std::list<std::unique_ptr<Connection>> connections;

  Impl(FileServerOptions o, std::string root)
      : options(std::move(o)), handler(std::move(root), options.token, options.queries) {
    drops_left = options.test_drop_count;
  }

  void AcceptLoop();
  void ReapFinished(bool all);
  void Serve(Connection* connection);
  bool ServeOne(const TcpSocket& socket, std::vector<char>* buffer, const std::string& peer);
  Status SendResponse(const TcpSocket& socket, FileResponse* response, bool keep_alive,
                      std::uint64_t* body_sent);
  void Reject(int fd, unsigned status, const char* message);
};

void FileServer::Impl::Reject(int fd, unsigned status, const char* message) {
  const std::string body = std::string("{\"error\":\"") + message + "\"}\n";
  http::response<http::empty_body> res{static_cast<http::status>(status), 11};
  res.set(http::field::content_type, "application/json");
  res.content_length(body.size());
  res.keep_alive(false);
  std::ostringstream os;
  os << res.base() << body;
  const std::string bytes = os.str();
  TcpSocket socket(fd);
  (void)socket.SendAll(bytes.data(), bytes.size(), Clock::now() + std::chrono::seconds(1));
}

void FileServer::Impl::AcceptLoop() {
  while (!stopping) {
    ReapFinished(false);
    pollfd p{listener.fd(), POLLIN, 0};
    if (poll(&p, 1, 200) <= 0) continue;
    const int fd = accept4(listener.fd(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0) continue;
    std::lock_guard<std::mutex> lock(connections_mutex);
    if (static_cast<int>(connections.size()) >= options.max_connections) {
      Reject(fd, 503, "too many connections");
      continue;
    }
    // Without TCP_NODELAY a reply's body waits behind its header (Nagle) until the client
    // acknowledges the header, which a client with delayed ACKs does only after ~40 ms: every
    // request after the first on a keep-alive connection stalled that long.
    const int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    auto connection = std::make_unique<Connection>();
    connection->fd = fd;
    Connection* raw = connection.get();
    connections.push_back(std::move(connection));
    raw->thread = std::thread([this, raw] { Serve(raw); });
  }
}

void FileServer::Impl::ReapFinished(bool all) {
  std::list<std::unique_ptr<Connection>> finished;
  {
    std::lock_guard<std::mutex> lock(connections_mutex);
    for (auto it = connections.begin(); it != connections.end();) {
      if (all) shutdown((*it)->fd, SHUT_RDWR);  // wakes its poll()
      if (all || (*it)->done) {
        finished.push_back(std::move(*it));
        it = connections.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& c : finished) c->thread.join();
}

void FileServer::Impl::Serve(Connection* connection) {
  // sendfile to a client that went away raises SIGPIPE (it has no MSG_NOSIGNAL): blocked in
  // this thread it stays pending and sendfile returns EPIPE, whatever the host program does.
  sigset_t pipe;
  sigemptyset(&pipe);
  sigaddset(&pipe, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe, nullptr);
  TcpSocket socket(connection->fd);
  const std::string peer = PeerName(connection->fd);
  std::vector<char> buffer;
  while (!stopping && ServeOne(socket, &buffer, peer)) {
  }
  shutdown(connection->fd, SHUT_RDWR);
  // The descriptor is closed by `socket` only after `done`: until then Stop() may shut it down.
  std::lock_guard<std::mutex> lock(connections_mutex);
  socket.Close();
  connection->fd = -1;
  connection->done = true;
}

// Reads and answers one request; false when the connection is to be closed.
bool FileServer::Impl::ServeOne(const TcpSocket& socket, std::vector<char>* buffer,
                                const std::string& peer) {
  const Clock::time_point start = Clock::now();
  const Clock::time_point deadline = start + Seconds(options.header_timeout_s);
  http::request_parser<http::empty_body> parser;
  parser.header_limit(kMaxRequestHeader);
  parser.eager(false);
  while (true) {
    if (!buffer->empty()) {
      boost::beast::error_code ec;
      const std::size_t used = parser.put(boost::asio::buffer(*buffer), ec);
      buffer->erase(buffer->begin(), buffer->begin() + static_cast<std::ptrdiff_t>(used));
      if (parser.is_header_done()) break;
      if (ec == http::error::header_limit) {
        Reject(dup(socket.fd()), 431, "request header too large");
        return false;
      }
      if (ec && ec != http::error::need_more) {
        Reject(dup(socket.fd()), 400, "malformed request");
        if (options.access_log) std::fprintf(stderr, "%s - 400 malformed request\n", peer.c_str());
        return false;
      }
    }
    if (buffer->size() > kMaxRequestHeader) {
      Reject(dup(socket.fd()), 431, "request header too large");
      return false;
    }
    char block[4096];
    Result<std::size_t> got = socket.RecvSome(block, sizeof block, deadline);
    if (!got.ok() || *got == 0) return false;  // closed, or the header timeout passed
    buffer->insert(buffer->end(), block, block + *got);
  }
  const auto& req = parser.get();
  // This server takes no request body: a GET with one is refused, any other method gets its
  // 405 below; either way the connection closes rather than reading the body.
  const bool has_body = !parser.is_done() || parser.chunked();
  if (has_body && (req.method() == http::verb::get || req.method() == http::verb::head)) {
    Reject(dup(socket.fd()), 413, "request bodies are not accepted");
    return false;
  }
  FileRequest request{std::string(req.method_string()), std::string(req.target()),
                      std::string(req[http::field::range]), std::string(req[http::field::if_match]),
                      std::string(req[http::field::authorization])};
  if (options.test_on_request) options.test_on_request(request.method, request.target);
  FileResponse response = handler.Handle(request);
  std::uint64_t sent = 0;
  const bool keep_alive = req.keep_alive() && !has_body;
  const Status s = SendResponse(socket, &response, keep_alive, &sent);
  if (options.access_log) {
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    std::fprintf(stderr, "%s \"%s %s\" %u %llu %.1fms%s\n", peer.c_str(),
                 Printable(request.method).c_str(), Printable(request.target).c_str(),
                 response.status, static_cast<unsigned long long>(sent), ms,
                 s.ok() ? "" : (" (" + s.message() + ")").c_str());
  }
  return s.ok() && keep_alive;
}

Status FileServer::Impl::SendResponse(const TcpSocket& socket, FileResponse* response,
                                      bool keep_alive, std::uint64_t* body_sent) {
  const int fd = response->file_fd;
  struct Closer {
    int fd;
    ~Closer() {
      if (fd >= 0) close(fd);
    }
  } closer{fd};
  const Clock::time_point deadline = Clock::now() + Seconds(options.io_timeout_s);
  const std::uint64_t length = fd >= 0 ? response->file_length : response->body.size();
  http::response<http::empty_body> res{static_cast<http::status>(response->status), 11};
  for (const auto& [name, value] : response->headers) res.set(name, value);
  res.content_length(length);
  res.keep_alive(keep_alive);
  std::ostringstream os;
  os << res.base();
  std::string head = os.str();
  if (fd < 0 && !response->head_only) head += response->body;
  if (Status s = socket.SendAll(head.data(), head.size(), deadline); !s.ok()) return s;
  if (fd < 0 && !response->head_only) *body_sent = response->body.size();
  if (fd < 0 || response->head_only) return Status::Ok();
  std::uint64_t limit = length;
  if (options.test_drop_after > 0 && drops_left.fetch_sub(1) > 0) {
    limit = std::min(limit, options.test_drop_after);
  }
  off_t offset = static_cast<off_t>(response->file_offset);
  while (*body_sent < limit) {
    const std::size_t chunk =
        static_cast<std::size_t>(std::min<std::uint64_t>(limit - *body_sent, 1u << 30));
    const ssize_t r = sendfile(socket.fd(), fd, &offset, chunk);
    if (r < 0 && (errno == EAGAIN || errno == EINTR)) {
      if (Status s = socket.WaitWritable(deadline); !s.ok()) return s;
      continue;
    }
    if (r < 0) return Status::Network(std::string("sendfile: ") + std::strerror(errno));
    if (r == 0) return Status::IoError("the file shrank while being sent");
    *body_sent += static_cast<std::uint64_t>(r);
  }
  if (limit < length) return Status::Network("test: connection dropped on purpose");
  return Status::Ok();
}

FileServer::FileServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

FileServer::~FileServer() { Stop(); }

std::uint16_t FileServer::port() const { return impl_->port; }

void FileServer::Stop() {
  if (!impl_ || impl_->stopping.exchange(true)) return;
  if (impl_->acceptor.joinable()) impl_->acceptor.join();
  impl_->ReapFinished(true);
  impl_->listener.Close();
}

Result<std::unique_ptr<FileServer>> FileServer::Start(const FileServerOptions& options) {
  char resolved[PATH_MAX];
  struct stat info {};
  if (realpath(options.dir.c_str(), resolved) == nullptr || stat(resolved, &info) != 0 ||
      !S_ISDIR(info.st_mode)) {
    return Status::InvalidInput(options.dir + ": not a directory");
  }
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(options.port);
  if (getaddrinfo(options.host.c_str(), service.c_str(), &hints, &found) != 0) {
    return Status::InvalidInput(options.host + ": expected a numeric IP address to bind");
  }
  TcpSocket listener(socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0));
  const int one = 1;
  setsockopt(listener.fd(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  const bool bound = bind(listener.fd(), found->ai_addr, found->ai_addrlen) == 0 &&
                     listen(listener.fd(), 128) == 0;
  const int err = errno;
  freeaddrinfo(found);
  if (!listener.open() || !bound) {
    return Status::Network("cannot listen on " + options.host + ":" + service + ": " +
                           std::strerror(err));
  }
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  getsockname(listener.fd(), reinterpret_cast<sockaddr*>(&addr), &len);
  const std::uint16_t port =
      ntohs(addr.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port
                                       : reinterpret_cast<sockaddr_in*>(&addr)->sin_port);
  auto impl = std::make_unique<Impl>(options, resolved);
  impl->listener = std::move(listener);
  impl->port = port;
  Impl* raw = impl.get();
  impl->acceptor = std::thread([raw] { raw->AcceptLoop(); });
  return std::unique_ptr<FileServer>(new FileServer(std::move(impl)));
}

}  // namespace treering::net
