#include "transport/tcp_socket.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <thread>

namespace rabit::transport {
namespace {

std::string Endpoint(const std::string& host, std::uint16_t port) {
  return host + ":" + std::to_string(port);
}

std::string ErrnoText(int err) { return std::strerror(err); }

struct SocketAddress {
  sockaddr_storage storage{};
  socklen_t length = 0;
  int family() const { return storage.ss_family; }
  const sockaddr* get() const { return reinterpret_cast<const sockaddr*>(&storage); }
};

// getaddrinfo failures that asking again cannot fix (an unknown name, a bad address text).
// EAI_AGAIN, EAI_MEMORY and EAI_SYSTEM may pass, so they stay retryable kNetwork errors.
bool PermanentResolveError(int rc) {
  return rc != EAI_AGAIN && rc != EAI_MEMORY && rc != EAI_SYSTEM;
}

// Resolves host (IPv4 or IPv6, numeric or a name) to its first address. A permanent failure is
// kInvalidInput, so ConnectWithRetry stops at once instead of retrying until its deadline.
Result<SocketAddress> Resolve(const std::string& host, std::uint16_t port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port);
  const int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &found);
  if (rc != 0 || found == nullptr) {
    const std::string what = "cannot resolve host '" + host + "': " + gai_strerror(rc);
    return PermanentResolveError(rc) ? Status::InvalidInput(what) : Status::Network(what);
  }
  SocketAddress addr;
  std::memcpy(&addr.storage, found->ai_addr, found->ai_addrlen);
  addr.length = found->ai_addrlen;
  freeaddrinfo(found);
  return addr;
}

std::string AddressText(const sockaddr_storage& addr) {
  char text[INET6_ADDRSTRLEN] = {0};
  if (addr.ss_family == AF_INET6) {
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(&addr)->sin6_addr, text,
              sizeof(text));
  } else {
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(&addr)->sin_addr, text, sizeof(text));
  }
  return text;
}

std::uint16_t PortOf(const sockaddr_storage& addr) {
  return ntohs(addr.ss_family == AF_INET6 ? reinterpret_cast<const sockaddr_in6*>(&addr)->sin6_port
                                          : reinterpret_cast<const sockaddr_in*>(&addr)->sin_port);
}

// Waits until fd is ready for `events` or the deadline passes.
Status WaitReady(int fd, short events, Deadline deadline, const char* what) {
  while (true) {
    pollfd pfd{fd, events, 0};
    const int rc = poll(&pfd, 1, MillisecondsLeft(deadline));
    if (rc > 0) return Status::Ok();
    if (rc == 0) return Status::Timeout(std::string("deadline passed while waiting to ") + what);
    if (errno != EINTR) return Status::Network(std::string("poll: ") + ErrnoText(errno));
  }
}

}  // namespace

int MillisecondsLeft(Deadline deadline) {
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
  if (left <= 0) return 0;
  return left > INT_MAX ? INT_MAX : static_cast<int>(left);
}

Deadline DeadlineAfter(double seconds) {
  return Clock::now() +
         std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

TcpSocket& TcpSocket::operator=(TcpSocket&& other) noexcept {
  if (this != &other) {
    Close();
    fd_ = other.Release();
  }
  return *this;
}

int TcpSocket::Release() {
  const int fd = fd_;
  fd_ = -1;
  return fd;
}

void TcpSocket::Close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

Result<TcpSocket> TcpSocket::Listen(std::uint16_t port, int backlog) {
  return Listen("0.0.0.0", port, backlog);
}

Result<TcpSocket> TcpSocket::Listen(const std::string& host, std::uint16_t port, int backlog) {
  auto addr = Resolve(host, port);
  if (!addr.ok()) return addr.status();
  TcpSocket sock(::socket(addr->family(), SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!sock.valid()) return Status::Network("socket: " + ErrnoText(errno));
  const int one = 1;
  setsockopt(sock.fd(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  if (::bind(sock.fd(), addr->get(), addr->length) != 0) {
    return Status::Network("bind " + Endpoint(host, port) + ": " + ErrnoText(errno));
  }
  if (::listen(sock.fd(), backlog) != 0) return Status::Network("listen: " + ErrnoText(errno));
  return sock;
}

Result<TcpSocket> TcpSocket::Connect(const std::string& host, std::uint16_t port,
                                     Deadline deadline) {
  auto addr = Resolve(host, port);
  if (!addr.ok()) return addr.status();
  TcpSocket sock(::socket(addr->family(), SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!sock.valid()) return Status::Network("socket: " + ErrnoText(errno));
  if (::connect(sock.fd(), addr->get(), addr->length) != 0) {
    if (errno != EINPROGRESS) {
      return Status::Network("connect to " + Endpoint(host, port) + ": " + ErrnoText(errno));
    }
    Status ready = WaitReady(sock.fd(), POLLOUT, deadline, "connect");
    if (!ready.ok()) return ready.WithContext("connect to " + Endpoint(host, port));
    int err = 0;
    socklen_t len = sizeof(err);
    getsockopt(sock.fd(), SOL_SOCKET, SO_ERROR, &err, &len);
    if (err != 0)
      return Status::Network("connect to " + Endpoint(host, port) + ": " + ErrnoText(err));
  }
  Status blocking = sock.SetNonBlocking(false);
  if (!blocking.ok()) return blocking;
  return sock;
}

Result<TcpSocket> TcpSocket::ConnectWithRetry(const std::string& host, std::uint16_t port,
                                              Deadline deadline) {
  auto pause = std::chrono::milliseconds(10);
  while (true) {
    auto sock = Connect(host, port, deadline);
    // Only a refused or unreachable peer may still come up; a name that does not resolve won't.
    const bool permanent =
        !sock.ok() && sock.status().code() == treering::StatusCode::kInvalidInput;
    if (sock.ok() || permanent || Clock::now() + pause >= deadline) return sock;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(500));
  }
}

Result<TcpSocket> TcpSocket::Accept(Deadline deadline) const {
  while (true) {
    Status ready = WaitReady(fd_, POLLIN, deadline, "accept a peer");
    if (!ready.ok()) return ready;
    const int fd = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd >= 0) return TcpSocket(fd);
    if (errno != EINTR && errno != EAGAIN && errno != ECONNABORTED) {
      return Status::Network("accept: " + ErrnoText(errno));
    }
  }
}

Status TcpSocket::SetNonBlocking(bool on) {
  const int flags = fcntl(fd_, F_GETFL, 0);
  if (flags < 0) return Status::Network("fcntl: " + ErrnoText(errno));
  const int wanted = on ? (flags | O_NONBLOCK) : (flags & ~O_NONBLOCK);
  if (fcntl(fd_, F_SETFL, wanted) != 0) return Status::Network("fcntl: " + ErrnoText(errno));
  return Status::Ok();
}

Status TcpSocket::TuneForCollectives(int buffer_bytes) {
  const int one = 1;
  // Small op headers and tree hops must not wait for Nagle's 40 ms delayed-ACK dance.
  setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  setsockopt(fd_, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
  if (buffer_bytes > 0) {
    setsockopt(fd_, SOL_SOCKET, SO_SNDBUF, &buffer_bytes, sizeof(buffer_bytes));
    setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &buffer_bytes, sizeof(buffer_bytes));
  }
  return SetNonBlocking(true);
}

Status TcpSocket::SendAll(std::span<const std::uint8_t> bytes, Deadline deadline) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n =
        ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      sent += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      Status ready = WaitReady(fd_, POLLOUT, deadline, "send");
      if (!ready.ok()) return ready;
      continue;
    }
    return Status::Network("send: " + ErrnoText(errno));
  }
  return Status::Ok();
}

Status TcpSocket::RecvAll(std::span<std::uint8_t> bytes, Deadline deadline) {
  std::size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t n = ::recv(fd_, bytes.data() + got, bytes.size() - got, MSG_DONTWAIT);
    if (n > 0) {
      got += static_cast<std::size_t>(n);
      continue;
    }
    if (n == 0) return Status::Network("connection closed by the remote side");
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      Status ready = WaitReady(fd_, POLLIN, deadline, "receive");
      if (!ready.ok()) return ready;
      continue;
    }
    return Status::Network("recv: " + ErrnoText(errno));
  }
  return Status::Ok();
}

std::uint16_t TcpSocket::port() const {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  if (getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) return 0;
  return PortOf(addr);
}

std::string TcpSocket::LocalAddress() const {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  if (getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) return "127.0.0.1";
  return AddressText(addr);
}

std::string TcpSocket::RemoteEndpoint() const {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  if (getpeername(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) return "?";
  const std::string ip = AddressText(addr);
  const std::string host = addr.ss_family == AF_INET6 ? "[" + ip + "]" : ip;
  return host + ":" + std::to_string(PortOf(addr));
}

}  // namespace rabit::transport
