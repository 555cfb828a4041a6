// Recovery epochs (fault tolerance, docs/fault-tolerance.md): which ranks are lost, which have
// asked to relink in the open epoch, and when the epoch is complete. Pure bookkeeping, no I/O
// (unit-tested directly); JobCoordinator drives it and owns the timer and the messages.
//
// Epoch 0 is the bootstrap. The first loss (a ranked worker's tracker connection dropped) or
// the first recover Hello opens epoch e+1; it completes when every rank 0..N-1 has sent a
// recover Hello in it (survivors on their open connection, restarted workers on a new one).
// A rank lost again while the epoch is open simply has to ask again. Losing a rank fails the
// job instead when restarts are off (max_attempts <= 1) or once some rank said Shutdown.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "job_roster.h"
#include "tracker/protocol.h"

namespace treering::tracker {

struct RestartPlacement {
  int rank = -1;
  bool supersedes = false;  // the rank's old connection still looks alive: the restart wins
};

class Recovery {
 public:
  // elastic: a lost rank is waited for (and may be dropped) even with restarts off.
  Recovery(int num_workers, std::uint32_t max_attempts, bool elastic = false);

  bool restarts_allowed() const { return max_attempts_ > 1; }
  bool losses_allowed() const { return restarts_allowed() || elastic_; }
  std::uint32_t max_attempts() const { return max_attempts_; }
  std::uint32_t epoch() const { return epoch_; }   // the last completed epoch
  bool collecting() const { return collecting_; }  // epoch() + 1 is open
  bool lost(int rank) const { return lost_[rank]; }

  // Rank `rank`'s tracker connection dropped before its Shutdown. kAborted (the job fails)
  // when restarts are off or `someone_shut_down`; else the rank waits for its restart and an
  // epoch is open afterwards.
  Status OnLost(int rank, bool someone_shut_down);
  // Which rank a restarted worker (new connection, Hello{recover}) takes over: Hello::rank if
  // set, else its task id's rank, else (no task id) the lowest lost rank. kInvalidInput for
  // restarts off, an unknown rank or task, a rank that is alive with the same or a newer
  // attempt (a duplicate), or an attempt beyond max_attempts.
  Result<RestartPlacement> PlaceRestarted(const proto::Hello& hello, const JobRoster& roster) const;
  // `rank` sent a recover Hello in the open epoch (opening it if none is). Returns true when
  // this completes the epoch: epoch() advanced and every rank must get its new Assign.
  bool OnRecoverHello(int rank, std::uint32_t attempt);
  // Ranks that have not asked in the open epoch, ascending; "rank 1" / "ranks 1, 3" for text.
  std::vector<int> Missing() const;
  std::string MissingText() const;
  // Ranks lost since the last completed epoch, in the order they were lost: when survivors then
  // fail (an engine that cannot relink), these are the first cause.
  const std::vector<int>& LostThisEpoch() const { return lost_this_epoch_; }
  // Elastic, once the elastic timeout of the open epoch passed: the ranks that have not asked
  // in it (lost, or silent: a host gone from the network drops no connection), ascending;
  // empty when no epoch is open or nobody asked.
  std::vector<int> Droppable() const;
  // Elastic shrink: the open epoch completes with the ranks of `old_of_new` (rank r of the new
  // world was old_of_new[r]), renumbered; epoch() advances.
  void CompleteShrunk(const std::vector<int>& old_of_new);
  // Elastic grow, right after an epoch completed: the world has `num_workers` ranks now.
  void Grow(int num_workers);
  int num_workers() const { return num_workers_; }

 private:
  int num_workers_;
  std::uint32_t max_attempts_;
  bool elastic_ = false;
  std::uint32_t epoch_ = 0;
  bool collecting_ = false;
  std::vector<bool> lost_;
  std::vector<bool> asked_;
  std::vector<std::uint32_t> attempt_;
  std::vector<int> lost_this_epoch_;
};

}  // namespace treering::tracker
