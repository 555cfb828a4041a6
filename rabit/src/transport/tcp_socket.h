// TcpSocket: one owned TCP file descriptor (IPv4 or IPv6) and the few blocking-with-deadline
// helpers the bootstrap needs. Collectives do not use the blocking helpers: they drive non-blocking
// sockets from one poll() loop (see exchange.h).
//
// Contract: every call that may wait takes a Deadline and returns kTimeout when it passes;
// failures are Status values naming the remote address, never exceptions or aborts.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "base/status.h"

namespace rabit::transport {

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;
using treering::Status;
template <typename T>
using Result = treering::Result<T>;

// Milliseconds left until `deadline` for poll(), at least 0 and at most INT_MAX.
int MillisecondsLeft(Deadline deadline);
Deadline DeadlineAfter(double seconds);

class TcpSocket {
 public:
  TcpSocket() = default;
  explicit TcpSocket(int fd) : fd_(fd) {}
  TcpSocket(TcpSocket&& other) noexcept : fd_(other.Release()) {}
  TcpSocket& operator=(TcpSocket&& other) noexcept;
  TcpSocket(const TcpSocket&) = delete;
  TcpSocket& operator=(const TcpSocket&) = delete;
  ~TcpSocket() { Close(); }

  // A listening socket on all IPv4 interfaces; port 0 lets the kernel choose (see port()).
  static Result<TcpSocket> Listen(std::uint16_t port, int backlog = 256);
  // A listening socket bound to `host` only (an IPv4 or IPv6 address or a name of this machine).
  // kInvalidInput when host does not resolve, kNetwork when it cannot be bound (EADDRNOTAVAIL:
  // not an address of this machine).
  static Result<TcpSocket> Listen(const std::string& host, std::uint16_t port, int backlog = 256);
  // Dials host:port once; the connect itself is bounded by `deadline`. A host that cannot
  // resolve (unknown name) is kInvalidInput, a temporary resolver failure kNetwork.
  static Result<TcpSocket> Connect(const std::string& host, std::uint16_t port, Deadline deadline);
  // Dials until it succeeds or `deadline` passes (peers may not listen yet); a kInvalidInput
  // from Connect (the host cannot resolve) is returned at once.
  static Result<TcpSocket> ConnectWithRetry(const std::string& host, std::uint16_t port,
                                            Deadline deadline);
  Result<TcpSocket> Accept(Deadline deadline) const;

  // Collective-link tuning: non-blocking, TCP_NODELAY, large kernel buffers, keep-alive.
  Status TuneForCollectives(int buffer_bytes);
  Status SetNonBlocking(bool on);

  // Blocking-with-deadline whole-buffer I/O for small bootstrap messages.
  Status SendAll(std::span<const std::uint8_t> bytes, Deadline deadline);
  Status RecvAll(std::span<std::uint8_t> bytes, Deadline deadline);

  std::uint16_t port() const;          // local port
  std::string LocalAddress() const;    // local IPv4 or IPv6 address as text ("::1")
  std::string RemoteEndpoint() const;  // "ip:port" or "[ip6]:port" of the other end, for logs
  bool valid() const { return fd_ >= 0; }
  int fd() const { return fd_; }
  int Release();
  void Close();

 private:
  int fd_ = -1;
};

}  // namespace rabit::transport
