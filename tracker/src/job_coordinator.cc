#include "job_coordinator.h"

#include <cstdio>
#include <iostream>
#include <vector>

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
      recovery_(options.num_workers, options.max_attempts, options.elastic),
      recovery_timer_(io),
      elastic_timer_(io),
      started_(std::chrono::steady_clock::now()),
      status_(options.num_workers),
      hang_watch_(options.hang_report_s),
      hang_timer_(io),
      progress_line_(options.progress_line) {}

void JobCoordinator::Log(const std::string& line) const {
  if (options_.log) return options_.log(line);
  progress_line_.Clear();
  std::fprintf(stderr, "[tracker] %s\n", line.c_str());
  std::fflush(stderr);
  progress_line_.Restore();
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
  End(Status::Timeout("bootstrap timeout: only " + std::to_string(roster_.num_pending()) + " of " +
                      std::to_string(roster_.num_workers()) + " workers said hello within " +
                      std::to_string(options_.bootstrap_timeout_s) + " s"));
}

Status JobCoordinator::Join(const Arrival& arrival) {
  if (ended_) return Status::Aborted("the job has ended");
  auto batch = roster_.Join(arrival);
  if (!batch.ok()) return batch.status();
  if (batch->empty()) return Status::Ok();
  bootstrap_timer_.cancel();
  Log("all " + std::to_string(roster_.num_workers()) + " workers arrived; ranks assigned");
  const auto now = std::chrono::steady_clock::now();
  for (const Placement& p : batch.value()) {
    const Arrival& a = roster_.worker(p.rank);
    status_.OnAssigned(p.rank, a.host, a.task_id, now);
    if (auto s = sessions_.Find(p.session_id)) s->OnRankAssigned(p.rank);
  }
  // Even with --hang-report 0: a worker's rabit_hang_report may turn the lines on.
  WatchForHangs();
  return Status::Ok();
}

void JobCoordinator::OnPrint(int rank, std::string message) {
  while (!message.empty() && (message.back() == '\n' || message.back() == '\r')) {
    message.pop_back();
  }
  // Rank 0 prints the evaluation lines users compare with XGBoost's, so they stay verbatim.
  if (rank != 0) message = "[rank " + std::to_string(rank) + "] " + message;
  progress_line_.Clear();
  if (options_.print) {
    options_.print(message);
  } else {
    std::printf("%s\n", message.c_str());
    std::fflush(stdout);
  }
  progress_line_.Restore();
}

Status JobCoordinator::CheckLegacyClaim(int rank, const std::string& remote_ip) const {
  if (roster_.dialect() != Dialect::kLegacy) {
    return Status::Protocol("a legacy (token-less) client cannot act on a job of native workers");
  }
  if (!roster_.assigned() || rank < 0 || rank >= roster_.num_workers()) {
    return Status::InvalidInput("legacy client claims unknown rank " + std::to_string(rank));
  }
  const std::string& joined_from = roster_.worker(rank).host;
  if (joined_from != remote_ip) {
    return Status::Protocol("legacy client at " + remote_ip + " claims rank " +
                            std::to_string(rank) + ", which joined from " + joined_from);
  }
  return Status::Ok();
}

Status JobCoordinator::OnShutdown(int rank) {
  Status s = roster_.MarkShutdown(rank);
  if (!s.ok()) return s;
  status_.OnShutdown(rank);
  if (roster_.AllShutdown()) End(Status::Ok());
  return Status::Ok();
}

// On a cluster "rank 1 never started this op" sends the user looking for rank 1's machine:
// the failure names the host of every rank it is about (where that rank joined from).
std::string JobCoordinator::HostsOf(const std::vector<int>& ranks) const {
  if (!roster_.assigned()) return "";
  std::vector<bool> named(roster_.num_workers(), false);
  std::string hosts;
  for (int rank : ranks) {
    if (rank < 0 || rank >= roster_.num_workers() || named[rank]) continue;
    const std::string& host = roster_.worker(rank).host;
    if (host.empty()) continue;
    named[rank] = true;
    hosts += (hosts.empty() ? "rank " : ", rank ") + std::to_string(rank) + " on " + host;
  }
  return hosts.empty() ? "" : " [" + hosts + "]";
}

void JobCoordinator::OnWorkerFailed(int rank, const std::string& why,
                                    const std::vector<int>& blamed) {
  if (ended_) return;
  std::vector<int> ranks{rank};
  ranks.insert(ranks.end(), blamed.begin(), blamed.end());  // HostsOf drops ranks out of range
  // A survivor's report races its neighbours' ("link to rank 0 failed" from rank 1, when rank
  // 0 fell over the lost rank 3 first): the ranks whose loss opened the epoch are the cause.
  std::string after;
  if (recovery_.collecting()) {
    for (int lost : recovery_.LostThisEpoch()) {
      after += (after.empty() ? " (after losing rank " : ", rank ") + std::to_string(lost);
      ranks.push_back(lost);
    }
    if (!after.empty()) after += ")";
  }
  status_.OnFailed(rank);
  End(Status::Aborted("rank " + std::to_string(rank) + " failed: " + why + after + HostsOf(ranks)));
}

void JobCoordinator::OnRankLost(int rank, std::uint64_t session_id, const std::string& why) {
  if (ended_ || rank >= roster_.num_workers() || roster_.worker(rank).session_id != session_id) {
    return;  // superseded by a restart, or renumbered away by an elastic shrink
  }
  if (!recovery_.losses_allowed()) return OnWorkerFailed(rank, why);
  const bool was_collecting = recovery_.collecting();
  Status s = recovery_.OnLost(rank, roster_.num_shut_down() > 0);
  if (!s.ok()) return End(Status::Aborted(s.message() + ": " + why));
  status_.OnLost(rank);
  Log("lost rank " + std::to_string(rank) + " (" + why + "); waiting for its restart (epoch " +
      std::to_string(recovery_.epoch() + 1) + ")" +
      (options_.elastic ? "; dropped after " + std::to_string(options_.elastic_timeout_s) + " s"
                        : std::string()));
  if (!was_collecting) StartRecoveryClock();
}

Result<int> JobCoordinator::OnRestartedHello(std::uint64_t session_id, const proto::Hello& hello) {
  if (ended_) return Status::Aborted("the job has ended");
  if (roster_.worker(0).dialect != Dialect::kNative) {
    // Legacy workers rebuild links with their own "recover" command and cannot join an epoch.
    return Status::InvalidInput("native recover Hello in a job of legacy workers");
  }
  auto placed = recovery_.PlaceRestarted(hello, roster_);
  if (!placed.ok()) return placed.status();
  const int rank = placed->rank;
  const std::uint64_t old_session = roster_.worker(rank).session_id;
  Log("rank " + std::to_string(rank) + " restarted (attempt " + std::to_string(hello.attempt) +
      ") rejoins");
  status_.OnRestarted(rank, hello.attempt);
  Asked(rank, session_id, hello);  // rebinds first, so the old session's end is not a loss
  if (placed->supersedes) {
    if (auto old = sessions_.Find(old_session)) old->Stop();
  }
  return rank;
}

Status JobCoordinator::OnSurvivorHello(int rank, std::uint64_t session_id,
                                       const proto::Hello& hello) {
  if (ended_) return Status::Ok();
  if (roster_.num_shut_down() > 0) {
    return Status::Aborted("asked to relink after other ranks finished");
  }
  Asked(rank, session_id, hello);
  return Status::Ok();
}

// Records the rank's recover Hello; the last one of the epoch sends every rank its Assign.
void JobCoordinator::Asked(int rank, std::uint64_t session_id, const proto::Hello& hello) {
  roster_.Rebind(rank, session_id, hello.host, hello.port);
  const bool was_collecting = recovery_.collecting();
  // A restarted worker replays from its peers, which a world that grows at once would not
  // allow: joiners wait for an epoch without losses.
  const bool had_losses = !recovery_.LostThisEpoch().empty();
  if (!recovery_.OnRecoverHello(rank, hello.attempt)) {
    if (!was_collecting) StartRecoveryClock();
    TryShrink();
    return;
  }
  recovery_timer_.cancel();
  elastic_timer_.cancel();
  elastic_waiting_ = elastic_due_ = false;
  if (!joiners_.empty() && !had_losses) AdmitJoiners();
  status_.OnRecoveryDone(recovery_.epoch());
  Log("recovery epoch " + std::to_string(recovery_.epoch()) + ": all " +
      std::to_string(roster_.num_workers()) + " ranks relink");
  for (int r = 0; r < roster_.num_workers(); ++r) {
    if (auto s = sessions_.Find(roster_.worker(r).session_id)) {
      s->OnRankAssigned(r);
      if (!joiners_.empty()) s->OnResizePending();  // they relink again at the next round
    }
  }
}

void JobCoordinator::StartRecoveryClock() {
  Log("recovery epoch " + std::to_string(recovery_.epoch() + 1) + " opened");
  if (options_.elastic) StartElasticClock();
  const std::uint32_t open_epoch = recovery_.epoch() + 1;
  recovery_timer_.expires_after(
      std::chrono::milliseconds(static_cast<long long>(options_.recovery_timeout_s * 1000)));
  recovery_timer_.async_wait([this, open_epoch](const boost::system::error_code& ec) {
    if (ec || ended_ || !recovery_.collecting() || recovery_.epoch() + 1 != open_epoch) return;
    End(Status::Timeout("recovery epoch " + std::to_string(open_epoch) + " timed out after " +
                        std::to_string(options_.recovery_timeout_s) +
                        " s: " + recovery_.MissingText() + " did not rejoin"));
  });
}

void JobCoordinator::End(Status result) {
  if (ended_) return;
  ended_ = true;
  result_ = std::move(result);
  progress_line_.Finish();
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  Log((result_.ok() ? "job finished" : "job failed: " + result_.message()) + "; wall time " +
      std::to_string(wall) + " s");
  bootstrap_timer_.cancel();
  recovery_timer_.cancel();
  elastic_timer_.cancel();
  hang_timer_.cancel();
  legacy_turn_changed_.cancel();
  status_.OnJobEnded(result_.ok() ? "finished" : "failed");
  if (result_.ok()) {
    sessions_.FinishAll();
  } else {
    sessions_.AbortAll(result_.message());
  }
  on_end_();
}

void JobCoordinator::OnReport(int rank, const proto::Report& report) {
  if (ended_ || rank < 0 || rank >= roster_.num_workers()) return;
  status_.OnReport(rank, report, std::chrono::steady_clock::now());
  if (report.done_round >= 0) {
    if (const auto pace = status_.Pace()) progress_line_.Show(FormatProgress(*pace));
  }
}

std::string JobCoordinator::StatusJson() const {
  return status_.ToJson(std::chrono::steady_clock::now(), started_);
}

// Once a second: a stalled collective gets its line (hang_watch.h), at a back-off.
void JobCoordinator::WatchForHangs() {
  hang_timer_.expires_after(std::chrono::seconds(1));
  hang_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec || ended_) return;
    auto line = hang_watch_.Check(status_.ranks(), std::chrono::steady_clock::now());
    if (line) {
      Log(*line);
      status_.SetHang(*line);
    } else if (!hang_watch_.stalled()) {
      status_.SetHang("");
    }
    WatchForHangs();
  });
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
