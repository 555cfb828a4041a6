// TrackerServer: the acceptor and the event loop (shaped like the Asio HTTP server example);
// everything about the job itself lives in JobCoordinator and the sessions.
#include "accept_backoff.h"
#include "job_coordinator.h"
#include "session_manager.h"
#include "tracker/server.h"
#include "tracker_session.h"

namespace treering::tracker {

namespace asio = boost::asio;

struct TrackerServer::Impl {
  explicit Impl(TrackerOptions o) : options(std::move(o)) {}

  asio::awaitable<void> AcceptLoop();
  void CloseAcceptor() {
    boost::system::error_code ignored;
    acceptor.close(ignored);
    accept_retry.cancel();
  }

  TrackerOptions options;
  asio::io_context io{1};
  tcp::acceptor acceptor{io};
  asio::steady_timer accept_retry{io};
  tracker::SessionManager sessions;
  std::unique_ptr<tracker::JobCoordinator> job;
  std::uint64_t next_session_id = 1;
  std::uint16_t port = 0;
  bool started = false;
};

asio::awaitable<void> TrackerServer::Impl::AcceptLoop() {
  tracker::AcceptBackoff backoff;
  while (acceptor.is_open()) {
    boost::system::error_code ec;
    tcp::socket socket =
        co_await acceptor.async_accept(asio::redirect_error(asio::use_awaitable, ec));
    if (ec == asio::error::operation_aborted || !acceptor.is_open()) co_return;
    if (ec) {
      // Out of descriptors (or buffers) the connection stays queued: retrying at once would
      // spin. The sleep is a timer, so sessions already open keep being served meanwhile.
      const auto step = backoff.OnFailure(ec.message(), std::chrono::steady_clock::now());
      if (step.report) job->Log(*step.report);
      accept_retry.expires_after(step.delay);
      co_await accept_retry.async_wait(asio::redirect_error(asio::use_awaitable, ec));
      continue;
    }
    backoff.OnSuccess();
    sessions.StartAnonymous(std::make_shared<tracker::TrackerSession>(
                                next_session_id++, std::move(socket), *job, sessions),
                            options.max_anonymous_connections);
  }
}

TrackerServer::TrackerServer(TrackerOptions options)
    : impl_(std::make_unique<Impl>(std::move(options))) {}

TrackerServer::~TrackerServer() = default;

namespace {
Status CheckOptions(const TrackerOptions& o) {
  if (o.num_workers < 1) return Status::InvalidInput("num_workers must be at least 1");
  if (o.max_attempts < 1) return Status::InvalidInput("max_attempts must be at least 1");
  if (o.max_anonymous_connections < 1) {
    return Status::InvalidInput("max_anonymous_connections must be at least 1");
  }
  if (!(o.bootstrap_timeout_s > 0) || !(o.hello_timeout_s > 0) || !(o.recovery_timeout_s > 0)) {
    return Status::InvalidInput("tracker timeouts must be positive");
  }
  return Status::Ok();
}
}  // namespace

Status TrackerServer::Start() {
  Impl& m = *impl_;
  if (m.started) return Status::Internal("TrackerServer::Start called twice");
  Status s = CheckOptions(m.options);
  if (!s.ok()) return s;
  boost::system::error_code ec;
  const auto address = asio::ip::make_address(m.options.host_ip, ec);
  if (ec) return Status::InvalidInput("tracker host ip '" + m.options.host_ip + "' is not an IP");
  const tcp::endpoint endpoint(address, m.options.port);
  m.acceptor.open(endpoint.protocol(), ec);
  if (!ec) m.acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) m.acceptor.bind(endpoint, ec);
  if (!ec) m.acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    return Status::Network("cannot listen on " + m.options.host_ip + ":" +
                           std::to_string(m.options.port) + ": " + ec.message());
  }
  m.port = m.acceptor.local_endpoint().port();
  m.job = std::make_unique<tracker::JobCoordinator>(m.io, m.options, m.sessions,
                                                    [&m] { m.CloseAcceptor(); });
  m.job->set_port(m.port);
  m.job->StartBootstrapClock();
  asio::co_spawn(m.io, m.AcceptLoop(), asio::detached);
  m.started = true;
  m.job->Log("listening on " + m.options.host_ip + ":" + std::to_string(m.port) + " for " +
             std::to_string(m.options.num_workers) + " workers");
  return Status::Ok();
}

std::uint16_t TrackerServer::port() const { return impl_->port; }

Status TrackerServer::Wait() {
  if (!impl_->started) return Status::Internal("TrackerServer::Wait before Start");
  impl_->io.run();
  return impl_->job->result();
}

void TrackerServer::Stop() {
  if (!impl_->started) return;
  asio::post(impl_->io, [m = impl_.get()] { m->job->End(Status::Aborted("tracker stopped")); });
}

void TrackerServer::Abort(const std::string& reason) {
  if (!impl_->started) return;
  asio::post(impl_->io, [m = impl_.get(), reason] { m->job->End(Status::Aborted(reason)); });
}

}  // namespace treering::tracker
