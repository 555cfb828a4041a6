#include "net/tcp_socket.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

namespace treering::net {
namespace {

int MillisLeft(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return static_cast<int>(std::clamp<std::int64_t>(left.count(), 0, 1 << 30));
}

// Waits for `events` on fd; kTimeout when the deadline passes first.
Status PollFor(int fd, short events, Clock::time_point deadline, const char* what) {
  while (true) {
    pollfd p{fd, events, 0};
    const int r = poll(&p, 1, MillisLeft(deadline));
    if (r > 0) return Status::Ok();
    if (r == 0) return Status::Timeout(std::string("timed out waiting to ") + what);
    if (errno != EINTR) return Status::Network(std::string("poll failed: ") + std::strerror(errno));
  }
}

Status ConnectOne(int fd, const addrinfo* a, Clock::time_point deadline) {
  const int flags = fcntl(fd, F_GETFL, 0);
  fcntl(fd, F_SETFL, flags | O_NONBLOCK);  // so connect() itself honours the deadline
  if (connect(fd, a->ai_addr, a->ai_addrlen) != 0 && errno != EINPROGRESS) {
    return Status::Network(std::strerror(errno));
  }
  if (Status s = PollFor(fd, POLLOUT, deadline, "connect"); !s.ok()) return s;
  int err = 0;
  socklen_t len = sizeof err;
  getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
  if (err != 0) return Status::Network(std::strerror(err));
  fcntl(fd, F_SETFL, flags);
  return Status::Ok();
}

}  // namespace

TcpSocket::TcpSocket(TcpSocket&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

TcpSocket& TcpSocket::operator=(TcpSocket&& other) noexcept {
  if (this != &other) {
    Close();
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

TcpSocket::~TcpSocket() { Close(); }

void TcpSocket::Close() {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
}

Status TcpSocket::SendAll(const char* data, std::size_t n, Clock::time_point deadline) const {
  std::size_t sent = 0;
  while (sent < n) {
    if (Status s = PollFor(fd_, POLLOUT, deadline, "send"); !s.ok()) return s;
    const ssize_t r = send(fd_, data + sent, n - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (r < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (r < 0) return Status::Network(std::string("send failed: ") + std::strerror(errno));
    sent += static_cast<std::size_t>(r);
  }
  return Status::Ok();
}

Result<std::size_t> TcpSocket::RecvSome(char* buffer, std::size_t n,
                                        Clock::time_point deadline) const {
  // recv first, poll only when nothing is waiting: a bulk transfer mostly finds bytes already
  // queued, and a poll per recv doubled the system calls of a loopback load.
  while (true) {
    const ssize_t r = recv(fd_, buffer, n, MSG_DONTWAIT);
    if (r >= 0) return static_cast<std::size_t>(r);
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) {
      return Status::Network(std::string("receive failed: ") + std::strerror(errno));
    }
    if (Status s = PollFor(fd_, POLLIN, deadline, "receive"); !s.ok()) return s;
  }
}

Status TcpSocket::WaitWritable(Clock::time_point deadline) const {
  return PollFor(fd_, POLLOUT, deadline, "send");
}

Result<TcpSocket> ConnectTcp(const std::string& host, std::uint16_t port,
                             Clock::time_point deadline) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port);
  if (const int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &found); rc != 0) {
    return Status::Network("cannot resolve " + host + ": " + gai_strerror(rc));
  }
  Status last = Status::Network("no address");
  for (const addrinfo* a = found; a != nullptr; a = a->ai_next) {
    TcpSocket socket(::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol));
    if (!socket.open()) continue;
    last = ConnectOne(socket.fd(), a, deadline);
    if (last.ok()) {
      const int one = 1;
      setsockopt(socket.fd(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      freeaddrinfo(found);
      return socket;
    }
  }
  freeaddrinfo(found);
  return Status(last.code(), "cannot connect to " + host + ":" + service + ": " + last.message());
}

}  // namespace treering::net
