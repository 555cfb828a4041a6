// Blocking TCP sockets where every wait has a deadline: connect, send and receive poll() first,
// so a frozen or silent peer (client or server) costs a bounded time, never a hung thread.
// Beast does the HTTP parsing and serialising; its synchronous streams have no timeouts, so the
// bytes move through these calls instead.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/status.h"

namespace treering::net {

using Clock = std::chrono::steady_clock;

// Owns one socket descriptor.
class TcpSocket {
 public:
  TcpSocket() = default;
  explicit TcpSocket(int fd) : fd_(fd) {}
  TcpSocket(TcpSocket&& other) noexcept;
  TcpSocket& operator=(TcpSocket&& other) noexcept;
  TcpSocket(const TcpSocket&) = delete;
  TcpSocket& operator=(const TcpSocket&) = delete;
  ~TcpSocket();

  int fd() const { return fd_; }
  bool open() const { return fd_ >= 0; }
  void Close();

  // Sends all n bytes before the deadline.
  Status SendAll(const char* data, std::size_t n, Clock::time_point deadline) const;
  // Receives at least one byte (up to n); 0 means the peer closed the connection.
  Result<std::size_t> RecvSome(char* buffer, std::size_t n, Clock::time_point deadline) const;
  // Waits until the socket is writable (for sendfile) or the deadline passes.
  Status WaitWritable(Clock::time_point deadline) const;

 private:
  int fd_ = -1;
};

// Connects to host:port (a name or a numeric address) before the deadline.
Result<TcpSocket> ConnectTcp(const std::string& host, std::uint16_t port,
                             Clock::time_point deadline);

}  // namespace treering::net
