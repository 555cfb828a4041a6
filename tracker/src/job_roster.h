// Who is in the job: pending Hellos, the batch rank assignment, each rank's advertised
// address and whether it said Shutdown. Pure bookkeeping, no I/O (unit-tested directly).
//
// Ranks are given in one batch once num_workers workers said Hello, sorted by task id (numeric
// when every task id is an integer, else lexical), or in arrival order when a task id is missing.
// task_id -> rank is kept so that a restarted task can later get its old rank back.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "tracker/protocol.h"
#include "tracker/topology.h"

namespace treering::tracker {

enum class Dialect { kNative, kLegacy };

struct Arrival {
  std::uint64_t session_id = 0;
  Dialect dialect = Dialect::kNative;
  std::string task_id;  // "" when the worker has none
  std::string host;     // where peers reach it (native: advertised; legacy: seen by the tracker)
  std::uint16_t port = 0;
};

struct Placement {
  std::uint64_t session_id = 0;
  int rank = -1;
};

class JobRoster {
 public:
  explicit JobRoster(int num_workers);

  // Queues a new worker. Rejects a duplicate task id, a mixed native/legacy job and any
  // arrival after the batch was assigned. Returns the whole batch when this arrival completes
  // it, else an empty list.
  Result<std::vector<Placement>> Join(const Arrival& arrival);
  // A queued worker disconnected before the batch: forget it.
  void Leave(std::uint64_t session_id);
  Status MarkShutdown(int rank);
  // Recovery: `rank` is now served by `session_id` (a restarted worker, or the same one) and
  // listens on host:port (every epoch opens a fresh listening port).
  void Rebind(int rank, std::uint64_t session_id, const std::string& host, std::uint16_t port);
  // Elastic shrink: drops the `dropped` ranks and renumbers the others 0..n-1 in their old
  // order, with the smaller world's topology; the dropped tasks' ids are forgotten (a late
  // restart of one is refused as unknown). Returns the old rank of each new rank.
  std::vector<int> Shrink(const std::vector<int>& dropped);
  // Elastic grow: `joiners` get the ranks after the others, in their order, with the larger
  // world's topology. Rejects a task id the job already has.
  Status Grow(const std::vector<Arrival>& joiners);

  bool assigned() const { return assigned_; }
  // The dialect of the job's workers: set by the first arrival (mixed jobs are refused), none
  // while nobody has joined.
  std::optional<Dialect> dialect() const;
  bool AllShutdown() const;
  int num_workers() const { return num_workers_; }
  int num_pending() const { return static_cast<int>(pending_.size()); }
  int num_shut_down() const { return num_shut_down_; }
  const Arrival& worker(int rank) const { return ranked_[rank]; }
  std::optional<int> RankOfTask(const std::string& task_id) const;
  std::optional<int> RankOfSession(std::uint64_t session_id) const;
  const std::vector<topo::WorkerLinks>& topology() const { return topology_; }

  // The Assign message for `rank`: topology plus the advertised address of every lower-ranked
  // linked peer (to dial) and the count of higher-ranked ones (that will dial it).
  proto::Assign AssignFor(int rank, std::uint32_t epoch = 0) const;

 private:
  std::vector<Placement> AssignBatch();

  int num_workers_;
  bool assigned_ = false;
  std::vector<Arrival> pending_;  // arrival order
  std::vector<Arrival> ranked_;   // index = rank
  std::vector<bool> shut_down_;
  int num_shut_down_ = 0;
  std::map<std::string, int> rank_of_task_;
  std::vector<topo::WorkerLinks> topology_;
};

}  // namespace treering::tracker
