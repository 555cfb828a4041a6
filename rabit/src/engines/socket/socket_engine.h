// SocketEngine: the Rabit engine over TCP. Init bootstraps through the tracker (see
// tracker_bootstrap.h); each collective gets the next sequence number and runs on the
// Communicator, watching the tracker connection for Abort. A failed collective is reported to
// the tracker (so it can abort the other ranks) and leaves the engine failed: later calls
// return the same error. No fault tolerance here: checkpoints only count versions (the Engine
// defaults; the robust engine is the fault-tolerant one).
#pragma once

#include <memory>

#include "bootstrap/tracker_bootstrap.h"
#include "bootstrap/tracker_client.h"
#include "collective/communicator.h"
#include "engine_params.h"
#include "engines/engine.h"
#include "status/heartbeat.h"
#include "status/progress.h"
#include "transport/mailbox.h"

namespace rabit::engine {

// How to reach the tracker and peers, from `params`, for both TCP engines.
bootstrap::BootstrapConfig BootstrapConfigFor(const EngineParams& params);
// The collective tuning of `params` (timeouts, algorithm switch points), for both TCP engines.
collective::CollectiveOptions CollectiveOptionsFor(const EngineParams& params);

class SocketEngine final : public Engine {
 public:
  static treering::Result<std::unique_ptr<Engine>> Start(const EngineParams& params);

  int Rank() const override { return comm_->rank(); }
  int WorldSize() const override { return comm_->world(); }

  Status Allreduce(void* buf, std::size_t count, DataType type, OpKind op,
                   const PrepareFn& prepare) override;
  Status Broadcast(void* buf, std::size_t bytes, int root) override;
  Status Allgather(void* buf, const std::vector<std::size_t>& slice_bytes) override;
  Status TrackerPrint(const std::string& msg) override;
  // Messages go over their own link per pair of ranks (bootstrap/message_links.h).
  Result<PointToPoint*> Messages() override { return messages_.get(); }
  Status Reduce(void* buf, std::size_t count, DataType type, OpKind op, int root) override;
  Status Gather(const void* send, void* recv, const std::vector<std::size_t>& slice_bytes,
                int root) override;
  Status Scatter(const void* send, void* recv, const std::vector<std::size_t>& slice_bytes,
                 int root) override;
  // The ring reduce-scatter (collective/ring_reduce_scatter.cc).
  Status ReduceScatter(void* buf, const std::vector<std::size_t>& counts, DataType type,
                       OpKind op) override;

  Status Shutdown() override;

  const char* SetPhase(const char* phase) override { return progress_.SetPhase(phase); }
  void SetRound(int round) override { progress_.SetRound(round); }
  void ReportRound(const RoundReport& round) override;

 private:
  // The partner and message links' addresses go round as more ops #0 (after the tree discovery), so
  // the program's collectives keep their numbers (1, 2, ...) in error messages.
  static constexpr std::uint64_t kMessageLinkSeq = 0;

  SocketEngine(std::unique_ptr<bootstrap::TrackerClient> tracker,
               std::unique_ptr<collective::Communicator> comm,
               std::unique_ptr<transport::Mailbox> messages)
      : tracker_(std::move(tracker)), comm_(std::move(comm)), messages_(std::move(messages)) {
    comm_->SetFailureHook([this](const Status& status) { (void)Report(status); });
  }
  // Runs one collective as op `seq`, telling Progress when it enters and finishes.
  template <typename Run>
  Status Tracked(treering::proto::OpKind kind, std::uint64_t bytes, Run run) {
    const std::uint64_t seq = ++sequence_;
    progress_.Enter(kind, seq, bytes);
    Status status = run(seq);
    progress_.Finish(seq);
    return Report(std::move(status));
  }
  // Tells the tracker about a failed collective (best effort) and passes the status on.
  Status Report(Status status);

  std::unique_ptr<bootstrap::TrackerClient> tracker_;
  std::unique_ptr<collective::Communicator> comm_;
  std::unique_ptr<transport::Mailbox> messages_;
  std::uint64_t sequence_ = 0;  // op #0: the tree discovery and the message-link addresses
  bool reported_ = false;
  bool shut_down_ = false;
  status::Progress progress_;
  std::unique_ptr<status::Heartbeat> heartbeat_;  // after tracker_: stopped before it closes

 public:
  // Starts the heartbeat (every `interval_s`; 0: none).
  void StartHeartbeat(double interval_s);
  ~SocketEngine() override;
};

}  // namespace rabit::engine
