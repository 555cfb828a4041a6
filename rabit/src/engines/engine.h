// Engine: the seam every collective backend implements (single, socket, robust, mpi).
// The public API in rabit.h fronts exactly one Engine per process; engines report failures
// as Status values and the API turns them into rabit::Error at the boundary.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "collective/scratch.h"
#include "rabit/rabit.h"
#include "transport/point_to_point.h"

namespace rabit::engine {

using treering::Status;
template <typename T>
using Result = treering::Result<T>;

// Parameters read from the environment and key=value arguments (later wins).
using ParamList = std::vector<std::pair<std::string, std::string>>;

class Engine {
 public:
  virtual ~Engine() = default;

  virtual int Rank() const = 0;
  virtual int WorldSize() const = 0;
  virtual std::string ProcessorName() const = 0;

  virtual Status Allreduce(void* buf, std::size_t count, DataType type, OpKind op,
                           const PrepareFn& prepare) = 0;
  virtual Status Broadcast(void* buf, std::size_t bytes, int root) = 0;
  virtual Status Allgather(void* buf, const std::vector<std::size_t>& slice_bytes) = 0;
  virtual Status TrackerPrint(const std::string& msg) = 0;

  // Point-to-point messages (rabit.h's Send/Recv/Isend/Irecv), or nullptr when this engine has
  // none; NoMessagesReason() then says why (the robust engine refuses them).
  virtual transport::PointToPoint* Messages() { return nullptr; }
  virtual std::string NoMessagesReason() const { return "this engine has no point-to-point"; }
  // The defaults: Barrier is an Allreduce of one byte; Reduce/Gather/Scatter run the binomial
  // trees over Messages(), or (no messages) Allreduce/Allgather/Broadcast on copies, which the
  // robust engine can replay. slice_bytes[r] is rank r's part.
  virtual Status Barrier();
  virtual Status Reduce(void* buf, std::size_t count, DataType type, OpKind op, int root);
  virtual Status Gather(const void* send, void* recv, const std::vector<std::size_t>& slice_bytes,
                        int root);
  virtual Status Scatter(const void* send, void* recv, const std::vector<std::size_t>& slice_bytes,
                         int root);
  // counts[r]: rank r's elements of buf (rabit/comm.h). The default is an Allreduce of the
  // whole buffer: correct on any engine and replayed by the robust engine like any Allreduce.
  virtual Status ReduceScatter(void* buf, const std::vector<std::size_t>& counts, DataType type,
                               OpKind op);

  // Fault tolerance hooks; engines without it keep no state and return version 0.
  virtual Result<int> LoadCheckPoint(Serializable* global, Serializable* local) = 0;
  virtual Status CheckPoint(const Serializable* global, const Serializable* local) = 0;
  virtual int VersionNumber() const = 0;

  // Says goodbye to the tracker and closes links; called once by Finalize().
  virtual Status Shutdown() = 0;

 private:
  transport::ScratchArena rooted_scratch_;  // the binomial trees' buffers
};

// Chooses and starts the engine for these parameters (see rabit.h for the rules).
treering::Result<std::unique_ptr<Engine>> CreateEngine(const ParamList& params);

}  // namespace rabit::engine
