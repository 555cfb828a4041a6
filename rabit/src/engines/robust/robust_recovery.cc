// RobustEngine, the recovery half: running one collective with retry, re-linking, the
// consensus round and serving what the laggards need.
#include <algorithm>
#include <array>
#include <cstring>

#include "engines/robust/robust_engine.h"

namespace rabit::engine {
namespace {

bool IsLinkFailure(const Status& s) {
  return s.code() == treering::StatusCode::kNetwork || s.code() == treering::StatusCode::kTimeout;
}

constexpr int kMaxRelinks = 50;  // each bounded by the tracker's recovery timeout
using transport::RecoveryMeta;

}  // namespace

Status RobustEngine::Connect(transport::LinkSet links) {
  comm_.reset();
  auto comm =
      collective::Communicator::Create(std::move(links), options_.collective, tracker_.get());
  if (!comm.ok()) return comm.status();
  if (options_.link_partners) {
    Status linked = options_.link_partners(*comm.value());
    if (!linked.ok()) return linked;
  }
  comm_ = std::move(comm.value());
  comm_->SetFailureHook([this](const Status& s) {
    if (!IsLinkFailure(s)) (void)Fatal(s);  // divergence etc.: tell the tracker first
  });
  wire_seq_ = 0;
  return Status::Ok();
}

Status RobustEngine::Recover() {
  if (comm_) comm_->Close();  // cascade: every neighbour fails at once and recovers too
  const int old_rank = rank_;
  const int old_world = world_;
  for (int tries = 0; tries < kMaxRelinks; ++tries) {
    auto links = relink_();
    if (!links.ok())
      return links.status().WithContext("rank " + std::to_string(rank_) +
                                        " re-linking after a failure");
    ++relinks_;
    const transport::Topology& topo = links->topology();
    if (options_.elastic) {
      rank_ = topo.rank;
      world_ = topo.world;
    }
    Status connected = Connect(std::move(links.value()));
    if (connected.ok() && world_ != old_world) connected = AdoptNewWorld();
    if (connected.ok() && world_ != old_world) {
      return Status::WorldChanged(
          "rabit_elastic: the world changed: rank " + std::to_string(old_rank) + " of " +
          std::to_string(old_world) + " is now rank " + std::to_string(rank_) + " of " +
          std::to_string(world_) + "; training resumes from checkpoint version " +
          std::to_string(version_));
    }
    if (connected.ok()) {
      recovering_ = true;
      return connected;
    }
    if (!IsLinkFailure(connected)) return connected;
  }
  return Status::Aborted("rank " + std::to_string(rank_) + ": gave up after " +
                         std::to_string(kMaxRelinks) + " re-links in a row failed");
}

Status RobustEngine::AdoptNewWorld() {
  constexpr std::size_t kSlot = 4;
  std::vector<std::uint8_t> versions(kSlot * world_);
  transport::PutLe(versions.data() + kSlot * rank_, version_, kSlot);
  Status st =
      comm_->Allgather(++wire_seq_, versions.data(), std::vector<std::size_t>(world_, kSlot));
  if (!st.ok()) return st;
  std::uint32_t newest = 0;
  int holder = 0;
  for (int r = 0; r < world_; ++r) {
    const auto v = static_cast<std::uint32_t>(transport::GetLe(versions.data() + kSlot * r, kSlot));
    if (v > newest) {
      newest = v;
      holder = r;
    }
  }
  std::string global;
  if (rank_ == holder) global = global_;
  st = BroadcastBlob(&global, holder);
  if (!st.ok()) return st;
  global_ = std::move(global);
  version_ = newest;
  setup_.Clear();
  results_.Clear();
  replicas_.clear();
  has_local_ = false;  // local states are per rank: a renumbered world has none to give back
  recovering_ = false;
  commit_finished_ = false;
  loaded_ = false;  // the program's setup collectives run again, as at a first start
  world_changed_ = true;
  return Status::Ok();
}

Status RobustEngine::RunOnce(Call& call, ResultCache& cache) {
  if (!call.prepared) {
    if (call.prepare != nullptr && *call.prepare) (*call.prepare)();
    call.prepared = true;
    if (call.keep_input) cache.Stage(call.buf, call.bytes);
  } else if (call.keep_input) {
    cache.Unstage(call.buf, call.bytes);
  }
  return call.run(++wire_seq_);
}

Status RobustEngine::Collective(Call& call, Phase phase) {
  ResultCache& cache = CacheFor(phase);
  if (!recovering_) {
    Status st = RunOnce(call, cache);
    if (st.ok()) {
      cache.Append(call.signature, call.buf, call.bytes);
      return st;
    }
    if (!IsLinkFailure(st)) return Fatal(st);
    if (Status r = Recover(); !r.ok()) return Fatal(r);
  }
  for (;;) {
    std::vector<RankState> states;
    auto action = Agree(StateFor(phase), &states);
    Status st = action.status();
    if (st.ok()) {
      const Action& a = action.value();
      if (a.kind == ActionKind::kFail) return Fatal(Status::Aborted("recovery failed: " + a.error));
      if (a.kind == ActionKind::kRun) {
        st = RunOnce(call, cache);
        if (st.ok()) {
          cache.Append(call.signature, call.buf, call.bytes);
          recovering_ = false;  // every rank took this branch: all in step again
          return st;
        }
      } else {
        const bool mine = IsRequester(a, states, rank_);
        st = Serve(a, states, mine ? &call : nullptr);
        if (st.ok() && mine) return st;
      }
    }
    if (st.ok()) continue;
    if (!IsLinkFailure(st)) return Fatal(st);
    if (Status r = Recover(); !r.ok()) return Fatal(r);
  }
}

Result<Action> RobustEngine::Agree(const RankState& mine, std::vector<RankState>* states) {
  constexpr std::size_t kSlot = RankState::kBytes;
  std::vector<std::uint8_t> slots(kSlot * world_);
  const auto encoded = mine.Encode();
  std::copy(encoded.begin(), encoded.end(), slots.begin() + kSlot * rank_);
  Status st = comm_->Allgather(++wire_seq_, slots.data(), std::vector<std::size_t>(world_, kSlot));
  if (!st.ok()) return st;
  states->clear();
  for (int r = 0; r < world_; ++r) {
    auto state = RankState::Decode({slots.data() + kSlot * r, kSlot});
    if (!state.ok()) return state.status().WithContext("consensus: rank " + std::to_string(r));
    states->push_back(state.value());
  }
  return Decide(*states);
}

Status RobustEngine::Serve(const Action& action, const std::vector<RankState>& states, Call* call) {
  if (action.kind == ActionKind::kFinishCommit) {
    if (call != nullptr) commit_finished_ = true;
    return Status::Ok();
  }
  if (action.kind == ActionKind::kServeCheckpoint) return ServeCheckpoint(action, states);
  if (action.kind != ActionKind::kServeBootstrap && action.kind != ActionKind::kServeResult) {
    return Status::Internal("consensus: unexpected action for a collective");
  }
  ResultCache& source = action.kind == ActionKind::kServeBootstrap ? setup_ : results_;
  std::array<std::uint8_t, RecoveryMeta::kBytes> wire{};
  std::uint8_t* payload = nullptr;
  if (rank_ == action.holder) {
    const ResultCache::View view = source.Get(action.seq);
    wire = RecoveryMeta{*view.signature, view.bytes}.Encode();
    payload = view.data;
  }
  Status st = comm_->Broadcast(++wire_seq_, wire.data(), wire.size(), action.holder);
  if (!st.ok()) return st;
  const auto meta = RecoveryMeta::Decode(wire);
  if (!meta.ok()) {
    return meta.status().WithContext("recovery: rank " + std::to_string(action.holder) +
                                     " sent a bad result header");
  }
  const transport::OpHeader& signature = meta->signature;
  const std::uint64_t bytes = meta->bytes;
  if (rank_ != action.holder) {
    scratch_.resize(bytes);
    payload = scratch_.data();
  }
  st = comm_->Broadcast(++wire_seq_, payload, bytes, action.holder);
  if (!st.ok() || call == nullptr) return st;
  if (!(signature == call->signature) || bytes != call->bytes) {
    return Status::Protocol(
        "recovery: rank " + std::to_string(rank_) + " replays " + call->signature.Describe() +
        " as collective #" + std::to_string(action.seq) + " but rank " +
        std::to_string(action.holder) + " recorded " + signature.Describe() +
        " there: the program's collectives differ between runs (they must be deterministic)");
  }
  if (bytes != 0) std::memcpy(call->buf, payload, bytes);
  CacheFor(states[rank_].phase).Append(call->signature, call->buf, call->bytes);
  return Status::Ok();
}

Status RobustEngine::BroadcastBlob(std::string* blob, int root) {
  // Its size first, as a u64 little-endian (docs/protocol.md, "Rank-to-rank formats").
  std::array<std::uint8_t, 8> size{};
  transport::PutLe(size.data(), blob->size(), size.size());
  Status st = comm_->Broadcast(++wire_seq_, size.data(), size.size(), root);
  if (!st.ok()) return st;
  blob->resize(transport::GetLe(size.data(), size.size()));
  return comm_->Broadcast(++wire_seq_, blob->data(), blob->size(), root);
}

Status RobustEngine::ServeCheckpoint(const Action& action, const std::vector<RankState>& states) {
  std::string global;
  if (rank_ == action.holder) global = global_;
  Status st = BroadcastBlob(&global, action.holder);
  if (!st.ok()) return st;
  const bool has_local = states[action.holder].has_local != 0;
  std::string own_local;
  for (int loader = 0; has_local && loader < world_; ++loader) {
    if (states[loader].phase != Phase::kLoad) continue;
    const int holder = LocalReplicaHolder(states, loader, action.version);
    std::string part;
    if (rank_ == holder) part = replicas_[(holder - loader + world_) % world_];
    st = BroadcastBlob(&part, holder);
    if (!st.ok()) return st;
    if (loader == rank_) own_local = std::move(part);
  }
  if (states[rank_].phase != Phase::kLoad) return Status::Ok();
  global_ = std::move(global);
  version_ = action.version;
  has_local_ = has_local;
  replicas_.clear();
  if (has_local) replicas_.push_back(std::move(own_local));
  results_.Clear();
  loaded_ = true;
  return Status::Ok();
}

Result<int> RobustEngine::LoadCheckPoint(Serializable* global, Serializable* local) {
  if (world_changed_) {
    world_changed_ = false;
    loaded_ = true;
    if (version_ > 0 && global != nullptr) global->Load(global_);
    return static_cast<int>(version_);
  }
  if (loaded_) return static_cast<int>(version_);
  if (!recovering_) {  // everyone starts fresh (a restart would have re-linked everyone)
    loaded_ = true;
    return 0;
  }
  for (;;) {
    std::vector<RankState> states;
    auto action = Agree(StateFor(Phase::kLoad), &states);
    Status st = action.status();
    if (st.ok()) {
      const Action& a = action.value();
      if (a.kind == ActionKind::kFail) return Fatal(Status::Aborted("recovery failed: " + a.error));
      if (a.kind == ActionKind::kFreshStart) {
        loaded_ = true;
        return 0;
      }
      st = Serve(a, states, nullptr);
      if (st.ok() && a.kind == ActionKind::kServeCheckpoint) {
        if (version_ > 0 && global != nullptr) global->Load(global_);
        if (has_local_ && local != nullptr) local->Load(replicas_[0]);
        return static_cast<int>(version_);
      }
    }
    if (st.ok()) continue;
    if (!IsLinkFailure(st)) return Fatal(st);
    if (Status r = Recover(); !r.ok()) return Fatal(r);
  }
}

}  // namespace rabit::engine
