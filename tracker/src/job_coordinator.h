// The job's state machine on top of JobRoster: admits workers, hands out the batch, forwards
// prints, counts shutdowns, and ends the job exactly once (success, a failed rank, a bootstrap
// timeout or a stop). Ending aborts or stops every session and calls on_end (the server then
// closes its acceptor, so the event loop runs dry and Wait() returns). io_context thread only.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <utility>  // before Asio: Boost 1.74 awaitable.hpp uses std::exchange unincluded
#include <vector>

#include <boost/asio.hpp>

#include "job_roster.h"
#include "legacy_links.h"
#include "recovery.h"
#include "session_manager.h"
#include "status/hang_watch.h"
#include "status/job_status.h"
#include "status/progress_line.h"
#include "tracker/server.h"

namespace treering::tracker {

class JobCoordinator {
 public:
  JobCoordinator(boost::asio::io_context& io, const TrackerOptions& options,
                 SessionManager& sessions, std::function<void()> on_end);

  void StartBootstrapClock();
  // Queues the worker; when it completes the batch every queued session learns its rank.
  Status Join(const Arrival& arrival);
  void Leave(std::uint64_t session_id);
  // Elastic grow (job_coordinator_elastic.cc): a worker's start Hello after the ranks were
  // assigned. Queued; every rank is told, relinks at its next round boundary, and the epoch
  // that follows ranks the joiner after the others.
  Status OnJoinerHello(const Arrival& arrival);

  void OnPrint(int rank, std::string message);
  // Legacy clients carry no token, only a claimed rank, so every legacy command that acts on a
  // rank (print, shutdown, recover) must pass this: the job is a legacy one (a native job never
  // obeys a token-less client), the rank exists, and the claim comes from the address the
  // rank's own start connection came from. The reason when it does not.
  Status CheckLegacyClaim(int rank, const std::string& remote_ip) const;
  Status OnShutdown(int rank);
  // The worker serving `rank` dropped its connection before Shutdown, or reported an error:
  // the job fails with "rank R failed: why", followed by the host of `rank` and of each rank
  // in `blamed` (the ranks its Error report names in its `ranks` field; the text is never
  // searched for rank numbers).
  void OnWorkerFailed(int rank, const std::string& why, const std::vector<int>& blamed = {});

  // Recovery (recovery.h). A ranked native worker's connection dropped: lost (restarts on) or
  // fatal. Ignored when `session_id` no longer serves the rank (a restart superseded it).
  void OnRankLost(int rank, std::uint64_t session_id, const std::string& why);
  // A restarted worker's recover Hello on a new connection: its rank, or why it is refused.
  Result<int> OnRestartedHello(std::uint64_t session_id, const proto::Hello& hello);
  // A survivor's recover Hello on its open connection.
  Status OnSurvivorHello(int rank, std::uint64_t session_id, const proto::Hello& hello);
  std::uint32_t epoch() const { return recovery_.epoch(); }
  void End(Status result);

  // Status page (docs/status.md). A rank's progress Report: recorded and shown, never acted on.
  void OnReport(int rank, const proto::Report& report);
  std::string StatusJson() const;
  void set_port(std::uint16_t port) { port_ = port; }
  std::uint16_t port() const { return port_; }

  // Legacy link negotiations run one at a time, in rank order.
  boost::asio::awaitable<bool> AwaitLegacyTurn(int rank);
  void FinishLegacyTurn();
  LegacyLinkBroker& legacy_links() { return legacy_links_; }

  void Log(const std::string& line) const;
  const JobRoster& roster() const { return roster_; }
  const TrackerOptions& options() const { return options_; }
  bool ended() const { return ended_; }
  const Status& result() const { return result_; }

 private:
  void OnBootstrapDeadline();
  // " [rank R on HOST, ...]" for each of `ranks` whose host is known, once each, in order; ""
  // before the ranks are assigned or when none is known.
  std::string HostsOf(const std::vector<int>& ranks) const;
  void Asked(int rank, std::uint64_t session_id, const proto::Hello& hello);
  void StartRecoveryClock();
  // Elastic jobs (job_coordinator_elastic.cc): after elastic_timeout_s a lost rank that has not
  // come back is dropped as soon as every other rank asked to relink.
  void StartElasticClock();
  void TryShrink();
  // The epoch just completed with every rank: the queued joiners get the next ranks.
  void AdmitJoiners();
  void WatchForHangs();

  const TrackerOptions& options_;
  SessionManager& sessions_;
  std::function<void()> on_end_;
  JobRoster roster_;
  LegacyLinkBroker legacy_links_;
  int legacy_turn_ = 0;
  boost::asio::steady_timer legacy_turn_changed_;
  boost::asio::steady_timer bootstrap_timer_;
  Recovery recovery_;
  boost::asio::steady_timer recovery_timer_;
  boost::asio::steady_timer elastic_timer_;
  bool elastic_due_ = false;
  std::vector<Arrival> joiners_;  // waiting for the next epoch
  std::chrono::steady_clock::time_point
      join_asked_at_;                              // the elastic timeout of the open epoch passed
  bool elastic_waiting_ = false;                   // its timer runs
  std::chrono::steady_clock::time_point lost_at_;  // the open epoch's first loss
  std::chrono::steady_clock::time_point started_;
  bool ended_ = false;
  Status result_;
  JobStatus status_;
  HangWatch hang_watch_;
  boost::asio::steady_timer hang_timer_;
  mutable ProgressLine progress_line_;  // every line the tracker prints steps around it
  std::uint16_t port_ = 0;
};

// "who" for log lines and abort reasons: "rank 3" once ranked, else the task id or address.
std::string DescribeWorker(int rank, const std::string& task_id, const std::string& peer);

}  // namespace treering::tracker
