// RobustEngine: Rabit's fault tolerance over the socket transport (docs/fault-tolerance.md).
//
// * Normal running costs one extra collective per CheckPoint (the commit barrier) and a copy
//   of every result (two for Allreduce, whose input is kept to rerun a failed attempt): every
//   rank caches every result since the last checkpoint, and the setup results (collectives
//   before LoadCheckPoint) for good. No consensus round while nothing fails.
// * A link failure (peer closed, reset, silent past rabit_timeout) closes every link, which
//   cascades the failure to every rank, and re-links through the Relinker (the tracker's
//   recovery epoch). From then on every call starts with a consensus round (consensus.h) until
//   all ranks are at the same collective again: laggards are served cached results (their
//   `prepare` is not called), a restarted worker (attempt > 0) is served the setup results, the
//   checkpoint and its local state, then replays to the survivors' position.
// * Divergence (a peer called another collective), a tracker Abort and unrecoverable states are
//   fatal: reported to the tracker and returned.
// Thread contract: one thread at a time, as every engine.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bootstrap/tracker_client.h"
#include "collective/communicator.h"
#include "engine_params.h"
#include "engines/engine.h"
#include "engines/robust/consensus.h"
#include "engines/robust/result_cache.h"
#include "status/heartbeat.h"
#include "status/progress.h"

namespace rabit::engine {

// Rebuilds every link of this rank (same rank, same topology) once all ranks ask for it.
using Relinker = std::function<Result<transport::LinkSet>()>;

struct RobustOptions {
  collective::CollectiveOptions collective;
  std::uint32_t attempt = 0;  // DMLC_NUM_ATTEMPT (mock points match it)
  bool rejoined = false;      // joined survivors in a recovery epoch: recover from them first
  int local_replica = 2;      // ring successors that keep a copy of each rank's local state
  std::vector<MockPoint> mocks;
  // What a mock point does; the default exits as if killed (_exit(254)). Tests throw instead.
  std::function<void()> die;
  // Run on every new Communicator (start and each relink; every rank at once): links the
  // recursive allreduces' partners (bootstrap/partner_links.h), so this engine picks the same
  // algorithms as the socket engine and a job's floats sum in the same order with or without
  // restarts. Empty (in-process tests): tree and ring only.
  std::function<Status(collective::Communicator&)> link_partners;
  // Seconds between two progress Reports to the tracker (rabit_status_interval; 0: none).
  double status_interval_s = 1;
  double hang_report_s = -1;  // rabit_hang_report, sent with the reports (-1: not set)
  // rabit_elastic: a relink may bring a smaller world (the tracker dropped a lost rank). Then
  // nothing is replayed: the ranks agree on the last committed checkpoint and the collective
  // that was running fails with rabit::kWorldChangedMark; LoadCheckPoint then hands out that
  // checkpoint to the program, which redid its setup for the new rank and world.
  bool elastic = false;
  // rabit_elastic_join (treering-submit --join): this worker joined a running elastic job; it
  // takes the agreed checkpoint from the others right after linking.
  bool joining = false;
};

class RobustEngine final : public Engine {
 public:
  // `tracker` may be null (in-process tests): no Print forwarding, no error reports.
  static Result<std::unique_ptr<RobustEngine>> Create(
      transport::LinkSet links, Relinker relink, RobustOptions options,
      std::unique_ptr<bootstrap::TrackerClient> tracker);
  ~RobustEngine() override;

  int Rank() const override { return rank_; }
  int WorldSize() const override { return world_; }

  Status Allreduce(void* buf, std::size_t count, DataType type, OpKind op,
                   const PrepareFn& prepare) override;
  Status Broadcast(void* buf, std::size_t bytes, int root) override;
  Status Allgather(void* buf, const std::vector<std::size_t>& slice_bytes) override;
  Status TrackerPrint(const std::string& msg) override;
  // Point-to-point is refused: a collective's result can be replayed to a restarted rank from
  // its peers' caches, but a message cannot simply be re-sent (its sender may have moved on or
  // died too). Reduce/Gather/Scatter and Barrier run as Allreduce / Allgather / Broadcast,
  // which are replayed like any other collective.
  Result<PointToPoint*> Messages() override;

  Result<int> LoadCheckPoint(Serializable* global, Serializable* local) override;
  Status CheckPoint(const Serializable* global, const Serializable* local) override;
  int VersionNumber() const override { return static_cast<int>(version_); }
  Status Shutdown() override;

  // The status page's progress (docs/status.md), as the socket engine reports it.
  const char* SetPhase(const char* phase) override { return progress_.SetPhase(phase); }
  void SetRound(int round) override { progress_.SetRound(round); }
  void ReportRound(const RoundReport& round) override;

  // Re-links performed so far (tests and the overhead report).
  int relinks() const { return relinks_; }

 private:
  // One collective call: what identifies it across ranks, its buffer and how to run it.
  struct Call {
    transport::OpHeader signature;  // sequence 0
    void* buf;
    std::size_t bytes;
    const PrepareFn* prepare;  // may be null
    bool keep_input;           // Allreduce reduces in place: a rerun needs the original input
    std::function<Status(std::uint64_t wire_seq)> run;
    bool prepared = false;
  };
  RobustEngine(int rank, int world, Relinker relink, RobustOptions options,
               std::unique_ptr<bootstrap::TrackerClient> tracker);

  Status Connect(transport::LinkSet links);
  Status Recover();
  // After a relink into a smaller world: the survivors agree on the newest committed checkpoint
  // (a rank may have committed one more version than another) and drop every cache.
  Status AdoptNewWorld();
  Status Collective(Call& call, Phase phase);
  Status RunOnce(Call& call, ResultCache& cache);
  Result<Action> Agree(const RankState& mine, std::vector<RankState>* states);
  Status Serve(const Action& action, const std::vector<RankState>& states, Call* call);
  Status ServeCheckpoint(const Action& action, const std::vector<RankState>& states);
  Status BroadcastBlob(std::string* blob, int root);
  RankState StateFor(Phase phase) const;
  ResultCache& CacheFor(Phase phase) { return phase == Phase::kBootstrap ? setup_ : results_; }
  Result<std::vector<std::string>> ReplicateLocal(const std::string& local);
  Status DoAllreduce(void* buf, std::size_t count, DataType type, OpKind op,
                     const PrepareFn* prepare, Phase phase);
  Status DoAllgather(void* buf, const std::vector<std::size_t>& slice_bytes);
  Phase UserPhase() const { return loaded_ ? Phase::kOp : Phase::kBootstrap; }
  void MaybeDie();
  Status Fatal(Status status);

  int rank_;
  int world_;
  Relinker relink_;
  RobustOptions options_;
  std::unique_ptr<bootstrap::TrackerClient> tracker_;
  std::unique_ptr<collective::Communicator> comm_;
  std::uint64_t wire_seq_ = 0;  // collectives on the current links (op #0 learnt the tree)

  bool loaded_ = false;      // LoadCheckPoint (or the first CheckPoint) has run
  bool recovering_ = false;  // a re-link happened and the ranks are not in step yet
  bool commit_finished_ = false;
  bool world_changed_ = false;  // the next LoadCheckPoint hands out the agreed checkpoint
  std::uint32_t version_ = 0;
  ResultCache setup_;    // collectives before LoadCheckPoint, kept for good
  ResultCache results_;  // collectives of the current version
  std::string global_;   // committed global checkpoint of version_
  std::string spare_;    // the previous version's bytes, reused by the next CheckPoint
  bool has_local_ = false;
  // Committed local states: replicas_[d] is the state of rank (rank - d) mod world, d = 0 own.
  std::vector<std::string> replicas_;
  std::vector<std::uint8_t> scratch_;
  int relinks_ = 0;
  bool failed_reported_ = false;
  bool shut_down_ = false;
  // The program's collectives as numbered on the status page (replays and the engine's own
  // consensus collectives are not counted).
  template <typename Run>
  Status Tracked(treering::proto::OpKind kind, std::uint64_t bytes, Run run) {
    const std::uint64_t seq = ++user_seq_;
    progress_.Enter(kind, seq, bytes);
    Status status = run();
    progress_.Finish(seq);
    return status;
  }
  std::uint64_t user_seq_ = 0;
  status::Progress progress_;
  std::unique_ptr<status::Heartbeat> heartbeat_;
};

}  // namespace rabit::engine
