// Talking to an HTTP server with raw bytes, for tests of what a server answers to requests no
// well-behaved client sends (garbage, paths leaving the served directory, oversized headers).
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <string>

namespace treering::testing {

// A socket connected to 127.0.0.1:port, or -1.
inline int ConnectLoopback(std::uint16_t port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// Sends raw bytes and returns everything the server answers before closing (or 2 s passing).
inline std::string RawExchange(std::uint16_t port, const std::string& bytes) {
  const int fd = ConnectLoopback(port);
  if (fd < 0) return "connect failed";
  (void)!send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
  shutdown(fd, SHUT_WR);
  std::string reply;
  char block[4096];
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    const ssize_t r = recv(fd, block, sizeof block, 0);
    if (r <= 0) break;
    reply.append(block, static_cast<std::size_t>(r));
  }
  close(fd);
  return reply;
}

inline std::string StatusLine(const std::string& reply) {
  return reply.substr(0, reply.find("\r\n"));
}

}  // namespace treering::testing
