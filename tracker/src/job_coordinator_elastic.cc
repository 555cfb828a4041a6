// JobCoordinator, the elastic half (docs/fault-tolerance.md, "Elastic jobs"): a rank that has
// not asked to relink elastic_timeout_s after a recovery epoch opened (its process died and was
// not restarted in time, or its host left the network) is dropped, and the epoch completes
// with the others renumbered 0..n-1 in their old order. Every survivor learns its new rank and the
// new world from the epoch's Assign; the workers then restart their rounds from the last committed
// checkpoint (rabit::WorldChanged), so nothing of the lost rank has to be replayed.
#include <algorithm>
#include <cstdio>

#include "job_coordinator.h"

namespace treering::tracker {
namespace {

std::string RanksText(const std::vector<int>& ranks) {
  std::string text = ranks.size() == 1 ? "rank " : "ranks ";
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    text += (i ? ", " : "") + std::to_string(ranks[i]);
  }
  return text;
}

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", s);
  return buf;
}

}  // namespace

// The clock runs from the epoch's opening (the first loss or recover Hello): a second loss in
// the same epoch is dropped with the first, not given a fresh timeout.
void JobCoordinator::StartElasticClock() {
  if (elastic_waiting_ || elastic_due_) return;
  elastic_waiting_ = true;
  lost_at_ = std::chrono::steady_clock::now();
  const std::uint32_t open_epoch = recovery_.epoch() + 1;
  elastic_timer_.expires_after(
      std::chrono::milliseconds(static_cast<long long>(options_.elastic_timeout_s * 1000)));
  elastic_timer_.async_wait([this, open_epoch](const boost::system::error_code& ec) {
    if (ec || ended_ || recovery_.epoch() + 1 != open_epoch) return;
    elastic_waiting_ = false;
    elastic_due_ = true;
    TryShrink();  // else the last survivor's recover Hello does it
  });
}

void JobCoordinator::TryShrink() {
  if (!elastic_due_ || ended_) return;
  const std::vector<int> dropped = recovery_.Droppable();
  if (dropped.empty()) return;
  const int old_n = roster_.num_workers();
  const int new_n = old_n - static_cast<int>(dropped.size());
  const std::string who = RanksText(dropped) + HostsOf(dropped);
  if (new_n < options_.min_workers) {
    for (int r : dropped) status_.OnFailed(r);
    return End(Status::Aborted("elastic: lost " + who + " (not back within " +
                               Seconds(options_.elastic_timeout_s) + " s); " +
                               std::to_string(new_n) + " worker(s) would remain, fewer than " +
                               "min_workers = " + std::to_string(options_.min_workers)));
  }
  const int round = status_.last_round();
  const double pause =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - lost_at_).count();
  for (int r : dropped) {  // a silent host's worker may still hold its connection
    if (auto s = sessions_.Find(roster_.worker(r).session_id)) s->Drop();
  }
  const std::vector<int> old_of_new = roster_.Shrink(dropped);
  recovery_.CompleteShrunk(old_of_new);
  status_.Renumber(old_of_new);
  status_.OnRecoveryDone(recovery_.epoch());
  recovery_timer_.cancel();
  elastic_due_ = false;
  Log("elastic: " + who + " left after round " + std::to_string(round) + "; world " +
      std::to_string(old_n) + " -> " + std::to_string(new_n) + " (epoch " +
      std::to_string(recovery_.epoch()) + "); paused " + Seconds(pause) +
      " s from the loss to the new world");
  for (int r = 0; r < new_n; ++r) {
    if (auto s = sessions_.Find(roster_.worker(r).session_id)) {
      s->OnRankAssigned(r);
      // Joiners wait for an epoch of their own (a shrink and a join in one epoch could leave
      // the world's size as it was, which the workers could not tell from a recovery).
      if (!joiners_.empty()) s->OnResizePending();
    }
  }
}

void JobCoordinator::Leave(std::uint64_t session_id) {
  roster_.Leave(session_id);
  std::erase_if(joiners_, [&](const Arrival& a) { return a.session_id == session_id; });
}

Status JobCoordinator::OnJoinerHello(const Arrival& arrival) {
  if (ended_) return Status::Aborted("the job has ended");
  if (roster_.dialect() != Dialect::kNative) {
    return Status::InvalidInput("a job of legacy workers cannot grow");
  }
  if (roster_.num_shut_down() > 0) return Status::Aborted("the job is finishing");
  if (!arrival.task_id.empty() && roster_.RankOfTask(arrival.task_id)) {
    return Status::InvalidInput("duplicate task id '" + arrival.task_id + "'");
  }
  if (joiners_.empty()) join_asked_at_ = std::chrono::steady_clock::now();
  joiners_.push_back(arrival);
  Log("task '" + arrival.task_id + "' at " + arrival.host + " asks to join; admitted at the " +
      "next round boundary");
  for (int r = 0; r < roster_.num_workers(); ++r) {
    if (auto s = sessions_.Find(roster_.worker(r).session_id)) s->OnResizePending();
  }
  return Status::Ok();
}

void JobCoordinator::AdmitJoiners() {
  const int old_n = roster_.num_workers();
  std::vector<Arrival> joiners = std::move(joiners_);
  joiners_.clear();
  if (Status s = roster_.Grow(joiners); !s.ok()) return End(Status::Aborted(s.message()));
  const int new_n = roster_.num_workers();
  recovery_.Grow(new_n);
  status_.Grow(new_n);
  const auto now = std::chrono::steady_clock::now();
  std::vector<int> ranks;
  for (int r = old_n; r < new_n; ++r) {
    const Arrival& a = roster_.worker(r);
    status_.OnAssigned(r, a.host, a.task_id, now);
    ranks.push_back(r);
  }
  Log("elastic: " + RanksText(ranks) + HostsOf(ranks) + " joined after round " +
      std::to_string(status_.last_round()) + "; world " + std::to_string(old_n) + " -> " +
      std::to_string(new_n) + " (epoch " + std::to_string(recovery_.epoch()) + "); paused " +
      Seconds(std::chrono::duration<double>(now - lost_at_).count()) +
      " s from the round boundary to the new world, " +
      Seconds(std::chrono::duration<double>(now - join_asked_at_).count()) +
      " s after the join was asked");
}

}  // namespace treering::tracker
