// RobustEngine, the normal-running half: the collectives, CheckPoint with its commit barrier
// and local replicas, mock deaths, shutdown. Recovery is in robust_recovery.cc.
#include "engines/robust/robust_engine.h"

#include <unistd.h>

#include <cstdio>
#include <functional>
#include <string_view>

#include "engines/tracker_reports.h"

namespace rabit::engine {
namespace {

void DieAsIfKilled() { _exit(254); }

}  // namespace

RobustEngine::RobustEngine(int rank, int world, Relinker relink, RobustOptions options,
                           std::unique_ptr<bootstrap::TrackerClient> tracker)
    : rank_(rank),
      world_(world),
      relink_(std::move(relink)),
      options_(std::move(options)),
      tracker_(std::move(tracker)) {
  if (!options_.die) options_.die = DieAsIfKilled;
}

RobustEngine::~RobustEngine() {
  if (heartbeat_) heartbeat_->Stop();
}

void RobustEngine::ReportRound(const RoundReport& round) {
  if (heartbeat_) SendRoundReport(progress_, tracker_.get(), round);  // else: no reports
}

Result<std::unique_ptr<RobustEngine>> RobustEngine::Create(
    transport::LinkSet links, Relinker relink, RobustOptions options,
    std::unique_ptr<bootstrap::TrackerClient> tracker) {
  const int rank = links.topology().rank;
  const int world = links.topology().world;
  std::unique_ptr<RobustEngine> engine(
      new RobustEngine(rank, world, std::move(relink), std::move(options), std::move(tracker)));
  engine->recovering_ = engine->options_.rejoined;
  // Counted per peer rank across relinks: every Communicator of the job shares the table.
  engine->options_.collective.traffic = std::make_shared<transport::LinkTrafficTable>(world);
  engine->progress_.TrackLinks(engine->options_.collective.traffic);
  engine->progress_.SetHangReport(engine->options_.hang_report_s);
  engine->heartbeat_ = StartTrackerHeartbeat(&engine->progress_, engine->tracker_.get(),
                                             engine->options_.status_interval_s);
  Status st = engine->Connect(std::move(links));
  if (st.ok() && engine->options_.joining) st = engine->AdoptNewWorld();
  if (!st.ok() && (st.code() == treering::StatusCode::kNetwork ||
                   st.code() == treering::StatusCode::kTimeout)) {
    st = engine->Recover();  // a peer died while we were learning the tree
  }
  if (!st.ok()) return engine->Fatal(st.WithContext("learning the tree topology"));
  return engine;
}

Status RobustEngine::Fatal(Status status) {
  // Not a failure: the program redoes its setup in the new world (rabit::WorldChanged).
  if (status.code() == treering::StatusCode::kWorldChanged) return status;
  if (!status.ok() && tracker_ && !failed_reported_ &&
      status.code() != treering::StatusCode::kInvalidInput) {
    failed_reported_ = true;
    (void)tracker_->ReportError("rank " + std::to_string(rank_) + ": " + status.message());
  }
  return status;
}

RankState RobustEngine::StateFor(Phase phase) const {
  RankState s;
  s.phase = phase;
  s.version = version_;
  s.seq = phase == Phase::kBootstrap ? setup_.size() : phase == Phase::kLoad ? 0 : results_.size();
  s.bootstrap_done = setup_.size();
  s.has_local = has_local_ ? 1 : 0;
  s.local_replicas = replicas_.empty() ? 0 : static_cast<std::uint32_t>(replicas_.size() - 1);
  return s;
}

// mock=rank,version,seqno,ndeath: die right before collective #seqno of `version` when this
// is attempt `ndeath` of the worker. Version 0 counts from the program's start (setup
// collectives included), later versions from their CheckPoint; a CheckPoint call counts as
// the collective after the version's last one.
void RobustEngine::MaybeDie() {
  const std::uint64_t seq =
      loaded_ ? results_.size() + (version_ == 0 ? setup_.size() : 0) : setup_.size();
  for (const MockPoint& m : options_.mocks) {
    if (m.rank == rank_ && m.version == version_ && m.seq == seq && m.ndeath == options_.attempt) {
      std::fprintf(stderr, "rank %d: mock death at version %u collective #%llu (attempt %u)\n",
                   rank_, version_, static_cast<unsigned long long>(seq), options_.attempt);
      std::fflush(stderr);
      options_.die();
    }
  }
}

Status RobustEngine::DoAllreduce(void* buf, std::size_t count, DataType type, OpKind op,
                                 const PrepareFn* prepare, Phase phase) {
  const std::size_t bytes = count * DataTypeSize(type);
  Call call{transport::OpHeader::ForAllreduce(0, type, op, bytes),
            buf,
            bytes,
            prepare,
            true,
            [&](std::uint64_t seq) { return comm_->Allreduce(seq, buf, count, type, op); }};
  return Collective(call, phase);
}

Status RobustEngine::DoAllgather(void* buf, const std::vector<std::size_t>& slice_bytes) {
  std::size_t bytes = 0;
  for (std::size_t b : slice_bytes) bytes += b;
  Call call{transport::OpHeader::ForAllgather(0, slice_bytes),
            buf,
            bytes,
            nullptr,
            false,
            [&](std::uint64_t seq) { return comm_->Allgather(seq, buf, slice_bytes); }};
  return Collective(call, UserPhase());
}

Status RobustEngine::Allreduce(void* buf, std::size_t count, DataType type, OpKind op,
                               const PrepareFn& prepare) {
  MaybeDie();
  return Tracked(treering::proto::OpKind::kAllreduce, count * DataTypeSize(type),
                 [&] { return DoAllreduce(buf, count, type, op, &prepare, UserPhase()); });
}

Status RobustEngine::Broadcast(void* buf, std::size_t bytes, int root) {
  MaybeDie();
  Call call{transport::OpHeader::ForBroadcast(0, root, bytes),
            buf,
            bytes,
            nullptr,
            false,
            [&](std::uint64_t seq) { return comm_->Broadcast(seq, buf, bytes, root); }};
  return Tracked(treering::proto::OpKind::kBroadcast, bytes,
                 [&] { return Collective(call, UserPhase()); });
}

Status RobustEngine::Allgather(void* buf, const std::vector<std::size_t>& slice_bytes) {
  MaybeDie();
  std::uint64_t bytes = 0;
  for (const std::size_t b : slice_bytes) bytes += b;
  return Tracked(treering::proto::OpKind::kAllgather, bytes,
                 [&] { return DoAllgather(buf, slice_bytes); });
}

Result<PointToPoint*> RobustEngine::Messages() {
  return Status::InvalidInput(
      "point-to-point messages (Send/Recv/Isend/Irecv) are refused by the robust engine "
      "(restarts on, TREERING_MAX_ATTEMPTS > 1): a collective can be replayed after a "
      "restart, a message cannot. Run without restarts (socket engine) or use collectives");
}

Status RobustEngine::TrackerPrint(const std::string& msg) {
  if (tracker_) return tracker_->Print(msg);
  std::printf("%s\n", msg.c_str());
  std::fflush(stdout);
  return Status::Ok();
}

// Every rank gets every rank's local state (one Allgather; simpler than Rabit's ring passing
// and fine for the small local states programs keep) and keeps its `local_replica`
// predecessors' plus its own.
Result<std::vector<std::string>> RobustEngine::ReplicateLocal(const std::string& local) {
  std::vector<std::uint64_t> sizes(world_, 0);
  sizes[rank_] = local.size();
  Status st =
      DoAllreduce(sizes.data(), sizes.size(), DataType::kUInt64, OpKind::kSum, nullptr, Phase::kOp);
  if (!st.ok()) return st;
  std::vector<std::size_t> slices(sizes.begin(), sizes.end());
  std::vector<std::size_t> offsets(world_ + 1, 0);
  for (int r = 0; r < world_; ++r) offsets[r + 1] = offsets[r] + slices[r];
  std::string all(offsets[world_], '\0');
  std::copy(local.begin(), local.end(), all.begin() + static_cast<std::ptrdiff_t>(offsets[rank_]));
  st = DoAllgather(all.data(), slices);
  if (!st.ok()) return st;
  const int keep = std::min(options_.local_replica, world_ - 1);
  std::vector<std::string> replicas;
  for (int d = 0; d <= keep; ++d) {
    const int r = (rank_ - d + world_) % world_;
    replicas.push_back(all.substr(offsets[r], slices[r]));
  }
  return replicas;
}

Status RobustEngine::CheckPoint(const Serializable* global, const Serializable* local) {
  MaybeDie();
  loaded_ = true;  // a program that never called LoadCheckPoint ends its setup phase here
  // Saved into the previous version's buffer: a model-sized string allocated afresh every
  // round would page-fault its way in, page by page, every round.
  std::string& next = spare_;
  next.clear();
  if (global != nullptr) global->Save(&next);
  std::vector<std::string> replicas;
  if (local != nullptr) {
    std::string mine;
    local->Save(&mine);
    auto replicated = ReplicateLocal(mine);
    if (!replicated.ok()) return replicated.status();
    replicas = std::move(replicated.value());
  }
  // The commit barrier: nobody starts version+1 before everyone has saved this one, and
  // [h, ~h] under Max tells whether every rank saved the same global bytes.
  const std::uint64_t h = std::hash<std::string_view>{}(next);
  // Elastic jobs add a third word: "the tracker says a worker waits to join", so that every
  // rank relinks at the same round boundary (max: one rank told is enough). No extra round
  // trip; jobs that are not elastic keep the two words.
  std::uint64_t check[3] = {h, ~h, 0};
  if (options_.elastic && tracker_) {
    auto pending = tracker_->PollResizePending();
    if (!pending.ok()) return Fatal(pending.status());
    check[2] = pending.value() ? 1 : 0;
  }
  commit_finished_ = false;
  Status st = DoAllreduce(check, options_.elastic ? 3 : 2, DataType::kUInt64, OpKind::kMax, nullptr,
                          Phase::kCommit);
  if (!st.ok()) return st;
  if (!commit_finished_ && check[0] != ~check[1]) {
    return Fatal(Status::Protocol("CheckPoint version " + std::to_string(version_ + 1) +
                                  ": the global state differs between ranks (Save must write "
                                  "the same bytes on every rank)"));
  }
  ++version_;
  global_.swap(spare_);
  has_local_ = local != nullptr;
  replicas_ = std::move(replicas);
  results_.Clear();
  // A resize agreed at this boundary: relink; the tracker's epoch admits the joiner, and
  // Recover reports the larger world (rabit::WorldChanged) after this checkpoint.
  if (options_.elastic && check[2] != 0 && !commit_finished_) return Recover();
  return Status::Ok();
}

Status RobustEngine::Shutdown() {
  if (shut_down_) return Status::Ok();
  shut_down_ = true;
  // A last barrier: no rank leaves while another may still need its cached results.
  std::uint64_t done = 0;
  Status st = DoAllreduce(&done, 1, DataType::kUInt64, OpKind::kMax, nullptr, UserPhase());
  if (comm_) comm_->Close();
  if (heartbeat_) heartbeat_->Stop();
  if (!st.ok()) return st;
  return tracker_ ? tracker_->Shutdown() : Status::Ok();
}

}  // namespace rabit::engine
