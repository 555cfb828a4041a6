#include "job_coordinator.h"

#include <cstdio>
#include <iostream>

namespace treering::tracker {

namespace asio = boost::asio;

std::string DescribeWorker(int rank, const std::string& task_id, const std::string& peer) {
  if (rank >= 0) return "rank " + std::to_string(rank);
  if (!task_id.empty()) return "task " + task_id + " (" + peer + ")";
  return peer;
}

JobCoordinator::JobCoordinator(asio::io_context& io, const TrackerOptions& options,
                               SessionManager& sessions, std::function<void()> on_end)
    : options_(options),
      sessions_(sessions),
      on_end_(std::move(on_end)),
      roster_(options.num_workers),
      legacy_turn_changed_(io, asio::steady_timer::time_point::max()),
      bootstrap_timer_(io),
      started_(std::chrono::steady_clock::now()) {}

void JobCoordinator::Log(const std::string& line) const {
  std::fprintf(stderr, "[tracker] %s\n", line.c_str());
  std::fflush(stderr);
}

void JobCoordinator::StartBootstrapClock() {
  started_ = std::chrono::steady_clock::now();
  bootstrap_timer_.expires_after(
      std::chrono::milliseconds(static_cast<long long>(options_.bootstrap_timeout_s * 1000)));
  bootstrap_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (!ec) OnBootstrapDeadline();
  });
}

void JobCoordinator::OnBootstrapDeadline() {
  if (ended_ || roster_.assigned()) return;
  End(Status::Timeout("bootstrap timeout: only " + std::to_string(roster_.num_pending()) +
                      " of " + std::to_string(roster_.num_workers()) +
                      " workers said hello within " + std::to_string(options_.bootstrap_timeout_s) +
                      " s"));
}

Status JobCoordinator::Join(const Arrival& arrival) {
  if (ended_) return Status::Aborted("the job has ended");
  auto batch = roster_.Join(arrival);
  if (!batch.ok()) return batch.status();
  if (batch->empty()) return Status::Ok();
  bootstrap_timer_.cancel();
  Log("all " + std::to_string(roster_.num_workers()) + " workers arrived; ranks assigned");
  for (const Placement& p : batch.value()) {
    if (auto s = sessions_.Find(p.session_id)) s->OnRankAssigned(p.rank);
  }
  return Status::Ok();
}

void JobCoordinator::OnPrint(int rank, std::string message) {
  while (!message.empty() && (message.back() == '\n' || message.back() == '\r')) {
    message.pop_back();
  }
  // Rank 0 prints the evaluation lines users compare with XGBoost's, so they stay verbatim.
  if (rank != 0) message = "[rank " + std::to_string(rank) + "] " + message;
  if (options_.print) {
    options_.print(message);
  } else {
    std::printf("%s\n", message.c_str());
    std::fflush(stdout);
  }
}

Status JobCoordinator::OnShutdown(int rank) {
  Status s = roster_.MarkShutdown(rank);
  if (!s.ok()) return s;
  if (roster_.AllShutdown()) End(Status::Ok());
  return Status::Ok();
}

void JobCoordinator::OnWorkerFailed(const std::string& who, const std::string& why) {
  if (ended_) return;
  End(Status::Aborted(who + " failed: " + why));
}

void JobCoordinator::End(Status result) {
  if (ended_) return;
  ended_ = true;
  result_ = std::move(result);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_)
                          .count();
  Log((result_.ok() ? "job finished" : "job failed: " + result_.message()) + "; wall time " +
      std::to_string(wall) + " s");
  bootstrap_timer_.cancel();
  legacy_turn_changed_.cancel();
  if (result_.ok()) {
    sessions_.FinishAll();
  } else {
    sessions_.AbortAll(result_.message());
  }
  on_end_();
}

asio::awaitable<bool> JobCoordinator::AwaitLegacyTurn(int rank) {
  while (!ended_ && legacy_turn_ != rank) {
    boost::system::error_code ec;
    co_await legacy_turn_changed_.async_wait(asio::redirect_error(asio::use_awaitable, ec));
  }
  co_return !ended_;
}

void JobCoordinator::FinishLegacyTurn() {
  ++legacy_turn_;
  legacy_turn_changed_.cancel();  // wakes every waiter; each re-checks whose turn it is
}

}  // namespace treering::tracker
