// What the status page shows about a job: each rank's latest progress Report, the metrics of
// every finished round, each rank's compute / sync time per round, restarts and recoveries.
// Fed by JobCoordinator (joins, losses, epochs, shutdowns) and by the Reports of authenticated
// worker connections; read by the status page (ToJson) and the hang watch (hang_watch.h).
// It only records: nothing here is read back to steer the job, so a bogus Report can at worst
// change what the page and the hang lines say. io_context thread only.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tracker/protocol.h"

namespace treering::tracker {

using SteadyTime = std::chrono::steady_clock::time_point;

enum class RankState { kWaiting, kRunning, kLost, kRecovering, kDone, kFailed };
const char* RankStateName(RankState state);

struct RankStatus {
  int rank = -1;
  std::string host;
  std::string task_id;
  RankState state = RankState::kWaiting;
  std::uint32_t attempt = 0;
  bool reported = false;  // a Report arrived since the rank was (re)assigned
  proto::Report last;     // the latest Report's progress fields
  double comp_total_s = 0;
  double sync_total_s = 0;
  int rounds_reported = 0;
  SteadyTime last_report{};
  SteadyTime entered_at{};  // when the tracker first saw `last.entered` at its value
};

// One finished round: the metric values (rank 0's; every rank computes the same) and each
// rank's compute / sync seconds (-1 when that rank has not reported the round).
struct RoundRecord {
  std::vector<proto::RoundMetric> metrics;
  std::vector<double> comp_s;
  std::vector<double> sync_s;
};

// How fast rounds finish: from the first and the latest round a rank reported.
struct RoundPace {
  int rounds_done = 0;
  int total_rounds = -1;  // -1: unknown
  double seconds_per_round = 0;
  double eta_s = -1;  // -1: unknown
};

class JobStatus {
 public:
  explicit JobStatus(int num_workers);

  void OnAssigned(int rank, const std::string& host, const std::string& task_id, SteadyTime now);
  void OnLost(int rank);
  void OnRestarted(int rank, std::uint32_t attempt);
  void OnRecoveryDone(std::uint32_t epoch);
  void OnShutdown(int rank);
  void OnFailed(int rank);
  void OnJobEnded(const std::string& outcome);
  // An elastic shrink: rank r of the smaller world was rank old_of_new[r].
  void Renumber(const std::vector<int>& old_of_new);
  // An elastic grow: ranks num_workers().. are new.
  void Grow(int num_workers);
  int last_round() const { return last_round_; }
  void OnReport(int rank, const proto::Report& report, SteadyTime now);

  const std::vector<RankStatus>& ranks() const { return ranks_; }
  const std::map<int, RoundRecord>& rounds() const { return rounds_; }
  // Known after two finished rounds, else nullopt.
  std::optional<RoundPace> Pace() const;
  int restarts() const { return restarts_; }
  std::uint32_t recoveries() const { return recoveries_; }
  // The last hang line the watch printed, shown on the page until progress clears it.
  void SetHang(std::string line) { hang_ = std::move(line); }

  // The JSON of docs/status.md; `started` is when the tracker started.
  std::string ToJson(SteadyTime now, SteadyTime started) const;

  // At most this many rounds are kept (the oldest go first): a job of 100,000 rounds keeps
  // the tracker's memory and the page's size bounded.
  static constexpr std::size_t kMaxRounds = 2000;

 private:
  int num_workers_;
  std::vector<RankStatus> ranks_;
  std::map<int, RoundRecord> rounds_;
  int total_rounds_ = -1;
  int first_round_ = -1;  // the first round reported, and when
  SteadyTime first_round_at_{};
  int last_round_ = -1;  // the latest round reported, and when
  SteadyTime last_round_at_{};
  int restarts_ = 0;
  std::uint32_t recoveries_ = 0;
  std::string outcome_;  // "" while running
  std::string hang_;
};

}  // namespace treering::tracker
