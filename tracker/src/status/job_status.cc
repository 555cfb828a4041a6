#include "status/job_status.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

namespace treering::tracker {

const char* RankStateName(RankState state) {
  switch (state) {
    case RankState::kWaiting:
      return "waiting";
    case RankState::kRunning:
      return "running";
    case RankState::kLost:
      return "lost";
    case RankState::kRecovering:
      return "recovering";
    case RankState::kDone:
      return "done";
    case RankState::kFailed:
      return "failed";
  }
  return "unknown";
}

JobStatus::JobStatus(int num_workers) : num_workers_(num_workers), ranks_(num_workers) {
  for (int r = 0; r < num_workers; ++r) ranks_[r].rank = r;
}

void JobStatus::OnAssigned(int rank, const std::string& host, const std::string& task_id,
                           SteadyTime now) {
  RankStatus& s = ranks_[rank];
  s.host = host;
  s.task_id = task_id;
  s.state = RankState::kRunning;
  s.entered_at = now;
}

void JobStatus::OnLost(int rank) { ranks_[rank].state = RankState::kLost; }

void JobStatus::OnRestarted(int rank, std::uint32_t attempt) {
  ranks_[rank].state = RankState::kRecovering;
  ranks_[rank].attempt = attempt;
  ranks_[rank].reported = false;
  ++restarts_;
}

void JobStatus::OnRecoveryDone(std::uint32_t epoch) {
  recoveries_ = epoch;
  for (RankStatus& s : ranks_) {
    if (s.state == RankState::kRecovering || s.state == RankState::kLost) {
      s.state = RankState::kRunning;
    }
  }
}

void JobStatus::OnShutdown(int rank) { ranks_[rank].state = RankState::kDone; }
void JobStatus::OnFailed(int rank) {
  if (rank >= 0 && rank < num_workers_) ranks_[rank].state = RankState::kFailed;
}
void JobStatus::OnJobEnded(const std::string& outcome) { outcome_ = outcome; }

void JobStatus::OnReport(int rank, const proto::Report& report, SteadyTime now) {
  RankStatus& s = ranks_[rank];
  if (!s.reported || report.entered != s.last.entered) s.entered_at = now;
  s.reported = true;
  s.last_report = now;
  const int done = report.done_round;
  s.last.pid = report.pid;
  s.last.round = report.round;
  s.last.phase = report.phase;
  s.last.op = report.op;
  s.last.entered = report.entered;
  s.last.finished = report.finished;
  s.last.bytes = report.bytes;
  s.last.hang_report_s = report.hang_report_s;
  s.last.links = report.links;
  if (done < 0) return;
  if (report.total_rounds > 0) total_rounds_ = report.total_rounds;
  if (first_round_ < 0) {
    first_round_ = done;
    first_round_at_ = now;
  }
  if (done > last_round_) {
    last_round_ = done;
    last_round_at_ = now;
  }
  // A restarted rank reports its rounds again: count each round once.
  RoundRecord* record = nullptr;
  if (auto it = rounds_.find(done); it != rounds_.end()) {
    record = &it->second;
  } else if (rounds_.size() < kMaxRounds || done > rounds_.begin()->first) {
    if (rounds_.size() >= kMaxRounds) rounds_.erase(rounds_.begin());
    record = &rounds_[done];
    record->comp_s.assign(num_workers_, -1);
    record->sync_s.assign(num_workers_, -1);
  }
  if (record == nullptr) return;
  if (record->comp_s.size() <= static_cast<std::size_t>(rank)) {  // a rank an elastic job grew
    record->comp_s.resize(num_workers_, -1);
    record->sync_s.resize(num_workers_, -1);
  }
  if (record->comp_s[rank] < 0) {
    s.comp_total_s += report.comp_s;
    s.sync_total_s += report.sync_s;
    ++s.rounds_reported;
  }
  record->comp_s[rank] = report.comp_s;
  record->sync_s[rank] = report.sync_s;
  if (!report.metrics.empty() && (rank == 0 || record->metrics.empty())) {
    record->metrics = report.metrics;
  }
}

namespace {

double Seconds(SteadyTime from, SteadyTime to) {
  return std::chrono::duration<double>(to - from).count();
}

}  // namespace

std::optional<RoundPace> JobStatus::Pace() const {
  if (last_round_ <= first_round_) return std::nullopt;
  RoundPace pace;
  pace.rounds_done = last_round_ + 1;
  pace.total_rounds = total_rounds_;
  pace.seconds_per_round =
      Seconds(first_round_at_, last_round_at_) / static_cast<double>(last_round_ - first_round_);
  if (total_rounds_ > 0) {
    pace.eta_s = pace.seconds_per_round * std::max(0, total_rounds_ - pace.rounds_done);
  }
  return pace;
}

namespace {

double SecondsBetween(SteadyTime from, SteadyTime to) {
  return std::chrono::duration<double>(to - from).count();
}

// JSON has no NaN or infinity: they become null.
nlohmann::json Number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); }

nlohmann::json RankJson(const RankStatus& s, SteadyTime now) {
  nlohmann::json j;
  j["rank"] = s.rank;
  j["host"] = s.host;
  j["task_id"] = s.task_id;
  j["pid"] = s.last.pid;
  j["state"] = RankStateName(s.state);
  j["attempt"] = s.attempt;
  j["round"] = s.last.round;
  j["phase"] = s.last.phase;
  j["op"] = proto::OpName(s.last.op);
  j["entered"] = s.last.entered;
  j["finished"] = s.last.finished;
  j["bytes_sent"] = s.last.bytes;
  j["comp_s"] = Number(s.comp_total_s);
  j["sync_s"] = Number(s.sync_total_s);
  j["rounds_reported"] = s.rounds_reported;
  j["hang_report_s"] =
      s.last.hang_report_s >= 0 ? nlohmann::json(s.last.hang_report_s) : nlohmann::json();
  nlohmann::json links = nlohmann::json::array();
  for (const proto::LinkReport& l : s.last.links) {
    // idle as of now: the rank measured it when it sent the report.
    links.push_back({{"peer", l.peer},
                     {"sent", l.sent},
                     {"received", l.received},
                     {"idle_s", Number(l.idle_s + SecondsBetween(s.last_report, now))},
                     {"waiting", l.waiting}});
  }
  j["links"] = std::move(links);
  j["last_report_s"] =
      s.reported ? nlohmann::json(SecondsBetween(s.last_report, now)) : nlohmann::json();
  return j;
}

}  // namespace

std::string JobStatus::ToJson(SteadyTime now, SteadyTime started) const {
  nlohmann::json j;
  j["world_size"] = num_workers_;
  j["state"] = outcome_.empty() ? "running" : outcome_;
  j["elapsed_s"] = SecondsBetween(started, now);
  const auto pace = Pace();
  j["total_rounds"] = total_rounds_;
  j["seconds_per_round"] = pace ? nlohmann::json(pace->seconds_per_round) : nlohmann::json();
  j["eta_s"] = pace && pace->eta_s >= 0 ? nlohmann::json(pace->eta_s) : nlohmann::json();
  j["restarts"] = restarts_;
  j["recoveries"] = recoveries_;
  j["hang"] = hang_;
  j["rounds_done"] = rounds_.size();
  nlohmann::json ranks = nlohmann::json::array();
  for (const RankStatus& s : ranks_) ranks.push_back(RankJson(s, now));
  j["ranks"] = std::move(ranks);
  nlohmann::json metrics = nlohmann::json::object();
  nlohmann::json timeline = nlohmann::json::array();
  for (const auto& [round, record] : rounds_) {
    for (const proto::RoundMetric& m : record.metrics) {
      metrics[m.name].push_back({round, Number(m.value)});
    }
    nlohmann::json comp = nlohmann::json::array(), sync = nlohmann::json::array();
    for (std::size_t r = 0; r < static_cast<std::size_t>(num_workers_); ++r) {
      const bool known = r < record.comp_s.size() && record.comp_s[r] >= 0;
      comp.push_back(known ? Number(record.comp_s[r]) : nlohmann::json());
      sync.push_back(known ? Number(record.sync_s[r]) : nlohmann::json());
    }
    timeline.push_back({{"round", round}, {"comp_s", comp}, {"sync_s", sync}});
  }
  j["metrics"] = std::move(metrics);
  j["timeline"] = std::move(timeline);
  // Replacement instead of an exception on invalid UTF-8 from a worker's strings.
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void JobStatus::Renumber(const std::vector<int>& old_of_new) {
  std::vector<RankStatus> ranks;
  for (std::size_t r = 0; r < old_of_new.size(); ++r) {
    ranks.push_back(ranks_[old_of_new[r]]);
    ranks.back().rank = static_cast<int>(r);
  }
  ranks_ = std::move(ranks);
  // Round records keep their wider per-rank vectors: the page shows the first num_workers_.
  num_workers_ = static_cast<int>(old_of_new.size());
}

void JobStatus::Grow(int num_workers) {
  ranks_.resize(num_workers);
  num_workers_ = num_workers;
}

}  // namespace treering::tracker
