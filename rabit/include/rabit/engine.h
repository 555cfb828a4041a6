// Engine: the one collective interface. Every backend implements it (single, socket, robust
// and MPI engines in rabit/src/engines/, and tests/support/thread_world's ranks as threads);
// rabit::Comm (comm.h) is the typed, throwing layer on top that library code calls.
//
// Contract (every implementation):
// * Collectives are blocking and called by every rank in the same order with the same counts.
// * Failures come back as Status values naming the op and the peer, never as exceptions or
//   aborts: a peer, a socket or a user's argument can be wrong, and only the top of a program
//   decides what that means.
// * One thread at a time calls an engine (the one that made it).
// An engine implements six calls (identity, Allreduce, Broadcast, Allgather, TrackerPrint);
// the rest have defaults built on those (engine.cc), which an engine overrides when it has
// something faster (MPI's own Reduce, the socket engine's ring reduce-scatter).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "rabit/data_type.h"
#include "rabit/point_to_point.h"

namespace rabit {

// Fills the buffer just before the collective runs. It is called only when the result is not
// already known, so a recovering worker skips the work (Rabit's lazy prepare).
using PrepareFn = std::function<void()>;

// One finished round, for the tracker's status page (docs/status.md).
struct RoundReport {
  int round = 0;
  int total_rounds = -1;  // rounds the job runs in all (the status page's ETA), -1: unknown
  double comp_s = 0;      // the round's time outside collectives
  double sync_s = 0;      // ... and inside them
  std::vector<std::pair<std::string, double>> metrics;  // "eval-rmse" -> value
};

// State saved by CheckPoint. Save must write the same bytes on every rank for global state.
class Serializable {
 public:
  virtual ~Serializable() = default;
  virtual void Save(std::string* out) const = 0;
  virtual void Load(const std::string& in) = 0;
};

class Engine {
 public:
  Engine();
  virtual ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  virtual int Rank() const = 0;
  virtual int WorldSize() const = 0;
  // The host's name (MPI: MPI_Get_processor_name).
  virtual std::string ProcessorName() const;

  // In place: buf[i] = op over ranks of buf[i]; `prepare` (may be empty) fills buf first.
  virtual treering::Status Allreduce(void* buf, std::size_t count, DataType type, OpKind op,
                                     const PrepareFn& prepare) = 0;
  // Copies `bytes` bytes from root's buf into every other rank's buf.
  virtual treering::Status Broadcast(void* buf, std::size_t bytes, int root) = 0;
  // buf holds every rank's slice in rank order (slice_bytes[r] for rank r); on entry this
  // rank's slice is filled, on return all of them.
  virtual treering::Status Allgather(void* buf, const std::vector<std::size_t>& slice_bytes) = 0;
  // Prints msg on the tracker's console; without a tracker, on stdout.
  virtual treering::Status TrackerPrint(const std::string& msg) = 0;

  // This engine's messages, or why it has none (the robust engine refuses them: a message
  // cannot be replayed after a restart). The default has none.
  virtual treering::Result<PointToPoint*> Messages();

  // Returns once every rank has called it. Default: an Allreduce of one byte.
  virtual treering::Status Barrier();
  // Rooted collectives; slice_bytes[r] is rank r's part (the same vector on every rank).
  // Defaults: binomial trees over Messages(), or (no messages) Allreduce / Allgather /
  // Broadcast on copies, which the robust engine can replay.
  virtual treering::Status Reduce(void* buf, std::size_t count, DataType type, OpKind op, int root);
  virtual treering::Status Gather(const void* send, void* recv,
                                  const std::vector<std::size_t>& slice_bytes, int root);
  virtual treering::Status Scatter(const void* send, void* recv,
                                   const std::vector<std::size_t>& slice_bytes, int root);
  // counts[r]: rank r's elements of buf (comm.h). Default: an Allreduce of the whole buffer,
  // correct on any engine and replayed by the robust engine like any Allreduce.
  virtual treering::Status ReduceScatter(void* buf, const std::vector<std::size_t>& counts,
                                         DataType type, OpKind op);

  // Fault tolerance hooks. The defaults are for engines without it: CheckPoint only counts
  // versions and LoadCheckPoint returns the current one (0 on a fresh start), so a program
  // written for the robust engine sees the same numbers everywhere.
  virtual treering::Result<int> LoadCheckPoint(Serializable* global, Serializable* local);
  virtual treering::Status CheckPoint(const Serializable* global, const Serializable* local);
  virtual int VersionNumber() const;

  // Progress for the tracker's status page and hang reports (docs/status.md). `phase` is a
  // string literal naming what the rank does ("histogram sync"); SetPhase returns the previous
  // one. Cheap (atomic stores): call them freely. Defaults: an engine without a tracker only
  // remembers the phase.
  virtual const char* SetPhase(const char* phase);
  virtual void SetRound(int round);
  virtual void ReportRound(const RoundReport& round);

  // Says goodbye to the tracker and closes links; called once by rabit::Finalize. Default:
  // nothing to close.
  virtual treering::Status Shutdown();

 private:
  template <typename Tree, typename OnCopies>
  treering::Status Rooted(const char* call, int root, const std::vector<std::size_t>* slice_bytes,
                          const Tree& tree, const OnCopies& on_copies);

  struct DefaultsState;  // the defaults' scratch buffers and version count (engine.cc)
  std::unique_ptr<DefaultsState> defaults_;
  const char* phase_ = "starting";
};

}  // namespace rabit
