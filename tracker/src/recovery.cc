#include "recovery.h"

#include <algorithm>

namespace treering::tracker {

Recovery::Recovery(int num_workers, std::uint32_t max_attempts, bool elastic)
    : num_workers_(num_workers),
      max_attempts_(max_attempts),
      elastic_(elastic),
      lost_(num_workers, false),
      asked_(num_workers, false),
      attempt_(num_workers, 0) {}

Status Recovery::OnLost(int rank, bool someone_shut_down) {
  if (!losses_allowed()) {
    return Status::Aborted("rank " + std::to_string(rank) +
                           " failed (restarts are off: --max-attempts 1)");
  }
  if (someone_shut_down) {
    return Status::Aborted("rank " + std::to_string(rank) +
                           " was lost after other ranks finished; it cannot be recovered");
  }
  if (std::find(lost_this_epoch_.begin(), lost_this_epoch_.end(), rank) == lost_this_epoch_.end()) {
    lost_this_epoch_.push_back(rank);
  }
  lost_[rank] = true;
  asked_[rank] = false;
  collecting_ = true;
  return Status::Ok();
}

Result<RestartPlacement> Recovery::PlaceRestarted(const proto::Hello& hello,
                                                  const JobRoster& roster) const {
  if (!restarts_allowed()) {
    return Status::InvalidInput(
        "recover Hello, but restarts are off for this job "
        "(treering-submit --local-num-attempt, tracker --max-attempts)");
  }
  int rank = hello.rank;
  if (rank < 0 && !hello.task_id.empty()) {
    auto known = roster.RankOfTask(hello.task_id);
    if (!known)
      return Status::InvalidInput("recover Hello from unknown task '" + hello.task_id + "'");
    rank = *known;
  } else if (rank < 0) {
    for (int r = 0; r < num_workers_ && rank < 0; ++r) {
      if (lost_[r]) rank = r;
    }
    if (rank < 0)
      return Status::InvalidInput("recover Hello without rank or task id, and no rank is lost");
  }
  const std::string who = "rank " + std::to_string(rank);
  if (rank >= num_workers_) {
    return Status::InvalidInput("recover Hello for " + who + ", the job has " +
                                std::to_string(num_workers_) + " ranks");
  }
  const std::string& task = roster.worker(rank).task_id;
  if (!hello.task_id.empty() && !task.empty() && hello.task_id != task) {
    return Status::InvalidInput("recover Hello for " + who + " from task '" + hello.task_id +
                                "', but that rank is task '" + task + "'");
  }
  if (hello.attempt >= max_attempts_) {
    return Status::InvalidInput("recover Hello for " + who + " with attempt " +
                                std::to_string(hello.attempt) + ", but the job allows " +
                                std::to_string(max_attempts_) + " attempts");
  }
  if (!lost_[rank] && hello.attempt <= attempt_[rank]) {
    return Status::InvalidInput("duplicate: " + who + " (attempt " +
                                std::to_string(attempt_[rank]) + ") is still connected");
  }
  return RestartPlacement{rank, !lost_[rank]};
}

bool Recovery::OnRecoverHello(int rank, std::uint32_t attempt) {
  lost_[rank] = false;
  if (attempt > attempt_[rank]) attempt_[rank] = attempt;
  collecting_ = true;
  asked_[rank] = true;
  for (int r = 0; r < num_workers_; ++r) {
    if (!asked_[r]) return false;
  }
  ++epoch_;
  collecting_ = false;
  asked_.assign(num_workers_, false);
  lost_this_epoch_.clear();
  return true;
}

std::vector<int> Recovery::Missing() const {
  std::vector<int> missing;
  for (int r = 0; r < num_workers_; ++r) {
    if (!asked_[r]) missing.push_back(r);
  }
  return missing;
}

std::string Recovery::MissingText() const {
  const std::vector<int> missing = Missing();
  std::string text = missing.size() == 1 ? "rank " : "ranks ";
  for (std::size_t i = 0; i < missing.size(); ++i) {
    text += (i ? ", " : "") + std::to_string(missing[i]);
  }
  return text;
}

std::vector<int> Recovery::Droppable() const {
  std::vector<int> dropped;
  if (!elastic_ || !collecting_) return dropped;
  for (int r = 0; r < num_workers_; ++r) {
    if (!asked_[r]) dropped.push_back(r);
  }
  if (dropped.size() == static_cast<std::size_t>(num_workers_)) return {};
  return dropped;
}

void Recovery::CompleteShrunk(const std::vector<int>& old_of_new) {
  std::vector<std::uint32_t> attempt;
  for (int old : old_of_new) attempt.push_back(attempt_[old]);
  num_workers_ = static_cast<int>(old_of_new.size());
  attempt_ = std::move(attempt);
  lost_.assign(num_workers_, false);
  asked_.assign(num_workers_, false);
  lost_this_epoch_.clear();
  collecting_ = false;
  ++epoch_;
}

void Recovery::Grow(int num_workers) {
  num_workers_ = num_workers;
  attempt_.resize(num_workers, 0);
  lost_.assign(num_workers, false);
  asked_.assign(num_workers, false);
}

}  // namespace treering::tracker
