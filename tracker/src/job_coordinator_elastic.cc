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
    if (auto s = sessions_.Find(roster_.worker(r).session_id)) s->OnRankAssigned(r);
  }
}

}  // namespace treering::tracker
