#include "connection.h"

namespace treering::tracker {

Connection::Connection(tcp::socket socket)
    : socket_(std::move(socket)),
      read_timer_(socket_.get_executor()),
      write_timer_(socket_.get_executor()) {
  boost::system::error_code ec;
  // Control messages are tiny and each waits for an answer: Nagle + delayed ACK would add
  // ~40 ms per exchange.
  socket_.set_option(tcp::no_delay(true), ec);
  const tcp::endpoint ep = socket_.remote_endpoint(ec);
  peer_ =
      ec ? std::string("unknown peer") : ep.address().to_string() + ":" + std::to_string(ep.port());
}

std::string Connection::remote_ip() const {
  boost::system::error_code ec;
  const tcp::endpoint ep = socket_.remote_endpoint(ec);
  return ec ? std::string() : ep.address().to_string();
}

// The generation check makes a timer that fired just as the operation completed harmless:
// its handler sees that the operation it guarded is already over.
void Connection::ArmTimer(asio::steady_timer& timer, std::uint64_t* generation, Millis timeout) {
  const std::uint64_t armed = ++*generation;
  timer.expires_after(timeout);
  const bool is_read = &timer == &read_timer_;
  timer.async_wait(
      [weak = weak_from_this(), generation, armed, is_read](const boost::system::error_code& ec) {
        auto self = weak.lock();
        if (ec || !self || *generation != armed) return;
        if (is_read) self->read_timed_out_ = true;
        self->Close();
      });
}

asio::awaitable<Status> Connection::Read(std::span<std::uint8_t> buffer, Millis timeout) {
  auto keep_alive = shared_from_this();
  if (!socket_.is_open()) co_return Status::Network("connection already closed");
  read_timed_out_ = false;
  if (timeout != kNoDeadline) ArmTimer(read_timer_, &read_generation_, timeout);
  boost::system::error_code ec;
  co_await asio::async_read(socket_, asio::buffer(buffer.data(), buffer.size()),
                            asio::redirect_error(asio::use_awaitable, ec));
  ++read_generation_;
  read_timer_.cancel();
  if (read_timed_out_) {
    co_return Status::Timeout("no complete message within " + std::to_string(timeout.count()) +
                              " ms");
  }
  if (ec == asio::error::eof) co_return Status::Network("connection closed by peer");
  if (ec) co_return Status::Network(ec.message());
  co_return Status::Ok();
}

asio::awaitable<Result<std::size_t>> Connection::ReadSome(std::span<std::uint8_t> buffer,
                                                          Millis timeout) {
  auto keep_alive = shared_from_this();
  if (!socket_.is_open()) co_return Status::Network("connection already closed");
  read_timed_out_ = false;
  ArmTimer(read_timer_, &read_generation_, timeout);
  boost::system::error_code ec;
  const std::size_t got = co_await socket_.async_read_some(
      asio::buffer(buffer.data(), buffer.size()), asio::redirect_error(asio::use_awaitable, ec));
  ++read_generation_;
  read_timer_.cancel();
  if (read_timed_out_) co_return Status::Timeout("no complete request in time");
  if (ec == asio::error::eof) co_return Status::Network("connection closed by peer");
  if (ec) co_return Status::Network(ec.message());
  co_return got;
}

void Connection::Send(std::vector<std::uint8_t> bytes, Millis timeout) {
  if (!socket_.is_open()) return;
  outbox_.emplace_back(std::move(bytes), timeout);
  if (!writing_) WriteNext();
}

void Connection::CloseAfterSends() {
  close_when_flushed_ = true;
  if (!writing_) Close();
}

void Connection::WriteNext() {
  if (outbox_.empty() || !socket_.is_open()) {
    writing_ = false;
    if (close_when_flushed_) Close();
    return;
  }
  writing_ = true;
  ArmTimer(write_timer_, &write_generation_, outbox_.front().second);
  asio::async_write(socket_, asio::buffer(outbox_.front().first),
                    [self = shared_from_this()](const boost::system::error_code& ec, std::size_t) {
                      ++self->write_generation_;
                      self->write_timer_.cancel();
                      self->outbox_.pop_front();
                      if (ec) {
                        self->outbox_.clear();
                        self->Close();
                      }
                      self->WriteNext();
                    });
}

void Connection::Close() {
  boost::system::error_code ignored;
  if (socket_.is_open()) {
    socket_.shutdown(tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
  }
  read_timer_.cancel();
  write_timer_.cancel();
}

}  // namespace treering::tracker
