// One TCP connection of the tracker with deadlines: every read is bounded by its own timeout
// (or explicitly unbounded while a worker trains), and queued writes are bounded too. When a
// deadline passes the socket is closed, which ends the pending operation with kTimeout.
// Single-threaded: used only on the tracker's io_context thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <utility>  // before Asio: Boost 1.74 awaitable.hpp uses std::exchange unincluded
#include <vector>

#include <boost/asio.hpp>

#include "base/status.h"

namespace treering::tracker {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using Millis = std::chrono::milliseconds;
inline constexpr Millis kNoDeadline{0};

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  explicit Connection(tcp::socket socket);

  // Fills `buffer` completely. kNetwork when the peer closed, kTimeout when `timeout` passed.
  asio::awaitable<Status> Read(std::span<std::uint8_t> buffer, Millis timeout);
  // Reads what is there (at least one byte) into `buffer`; errors as Read.
  asio::awaitable<Result<std::size_t>> ReadSome(std::span<std::uint8_t> buffer, Millis timeout);
  // Queues bytes; they go out in order. A failed or late write closes the connection.
  void Send(std::vector<std::uint8_t> bytes, Millis timeout);
  // Closes once every queued byte is written (or the write deadline passed).
  void CloseAfterSends();
  void Close();

  bool open() const { return socket_.is_open(); }
  asio::any_io_executor executor() { return socket_.get_executor(); }
  const std::string& peer() const { return peer_; }  // "ip:port" for log lines
  std::string remote_ip() const;

 private:
  void WriteNext();
  void ArmTimer(asio::steady_timer& timer, std::uint64_t* generation, Millis timeout);

  tcp::socket socket_;
  std::string peer_;
  asio::steady_timer read_timer_;
  asio::steady_timer write_timer_;
  std::uint64_t read_generation_ = 0;
  std::uint64_t write_generation_ = 0;
  bool read_timed_out_ = false;
  std::deque<std::pair<std::vector<std::uint8_t>, Millis>> outbox_;
  bool writing_ = false;
  bool close_when_flushed_ = false;
};

}  // namespace treering::tracker
