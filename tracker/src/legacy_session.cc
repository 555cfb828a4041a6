#include "legacy_session.h"

#include <cstring>

namespace treering::tracker {
namespace {

constexpr int kMaxNegotiationRounds = 16;  // rabit retries failed dials; bound it
// Task ids and command names are short; an anonymous client may not make us allocate more.
constexpr std::uint32_t kMaxPreambleString = 1024;

}  // namespace

LegacySession::LegacySession(std::uint64_t id, std::shared_ptr<Connection> conn,
                             JobCoordinator& job, SessionManager& sessions)
    : Session(id),
      conn_(std::move(conn)),
      job_(job),
      sessions_(sessions),
      timeout_(static_cast<long long>(job.options().hello_timeout_s * 1000)),
      rank_known_(conn_->executor(), asio::steady_timer::time_point::max()) {}

void LegacySession::Start() {
  asio::co_spawn(
      conn_->executor(),
      [self = std::static_pointer_cast<LegacySession>(shared_from_this())]() {
        return self->Run();
      },
      asio::detached);
}

// GCC 12 miscompiles co_await inside ?: expressions, so each read is its own statement.
asio::awaitable<Result<LegacySession::Preamble>> LegacySession::ReadPreamble() {
  Preamble p;
  auto rank = co_await ReadInt("rank");
  if (!rank.ok()) co_return rank.status();
  p.rank = rank.value();
  auto world = co_await ReadInt("world_size");
  if (!world.ok()) co_return world.status();
  p.world_size = world.value();
  auto task = co_await ReadString("task_id", kMaxPreambleString);
  if (!task.ok()) co_return task.status();
  p.task_id = task.value() == "NULL" ? "" : task.value();
  auto command = co_await ReadString("command", kMaxPreambleString);
  if (!command.ok()) co_return command.status();
  p.command = command.value();
  co_return p;
}

asio::awaitable<void> LegacySession::Run() {
  SendInt(static_cast<std::int32_t>(proto::kLegacyMagic));
  auto preamble = co_await ReadPreamble();
  Status s = preamble.status();
  const int n = job_.options().num_workers;
  if (s.ok()) {
    rank_ = preamble->rank;
    task_id_ = preamble->task_id;
    command_ = preamble->command;
    sessions_.Identified(id());
    if (preamble->world_size > 0 && preamble->world_size != n) {
      s = Status::InvalidInput("worker expects world size " + std::to_string(preamble->world_size) +
                               ", the job has " + std::to_string(n));
    }
  }
  if (s.ok()) s = co_await Dispatch(preamble->command);
  if (!s.ok()) Failed(s, preamble.ok() && preamble->command != "print");
  FlushReply();
  sessions_.Remove(id());
  conn_->CloseAfterSends();
}

void LegacySession::Failed(const Status& s, bool in_link_setup) {
  if (job_.ended()) return;
  // An unchecked rank is only a claim: the log names the address instead.
  const std::string who = DescribeWorker(claim_verified_ ? rank_ : -1, task_id_, conn_->peer());
  job_.Log("legacy client " + who + ": " + s.message());
  // A ranked worker that breaks off its link setup leaves its peers waiting forever.
  const bool lost = s.code() == StatusCode::kNetwork || s.code() == StatusCode::kTimeout;
  if (lost && in_link_setup && rank_ >= 0 && claim_verified_) {
    job_.OnWorkerFailed(rank_, s.message());
  }
  if (rank_ < 0) job_.Leave(id());
}

asio::awaitable<Status> LegacySession::Dispatch(const std::string& command) {
  const bool known =
      command == "print" || command == "shutdown" || command == "start" || command == "recover";
  if (!known) co_return Status::Protocol("unknown command '" + command.substr(0, 64) + "'");
  if (command == "start" && rank_ < 0) co_return co_await Start(false);
  // Everything else acts on a claimed rank, which must be believable (docs/protocol.md, Legacy
  // protocol).
  Status claim = job_.CheckLegacyClaim(rank_, conn_->remote_ip());
  if (!claim.ok()) co_return claim.WithContext("refused '" + command + "'");
  claim_verified_ = true;
  if (command == "print") {
    auto message = co_await ReadString("message", proto::kMaxString);
    if (!message.ok()) co_return message.status();
    job_.OnPrint(rank_, message.value());
    co_return Status::Ok();
  }
  if (command == "shutdown") co_return job_.OnShutdown(rank_);
  co_return co_await Start(true);
}

asio::awaitable<Status> LegacySession::Start(bool recover) {
  if (recover) {
    if (!job_.roster().assigned() || rank_ >= job_.roster().num_workers()) {
      co_return Status::InvalidInput("recover from unknown rank " + std::to_string(rank_));
    }
  } else {
    Status s = job_.Join({id(), Dialect::kLegacy, task_id_, conn_->remote_ip(), 0});
    if (!s.ok()) co_return s;
    while (rank_ < 0 && conn_->open() && !job_.ended()) {
      boost::system::error_code ec;
      co_await rank_known_.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    }
    if (rank_ < 0) co_return Status::Aborted("job ended before ranks were assigned");
    claim_verified_ = true;  // the tracker gave this connection its rank
    if (!co_await job_.AwaitLegacyTurn(rank_)) co_return Status::Aborted("job ended");
  }
  SendAssignment();
  Status s = co_await Negotiate();
  if (!recover) job_.FinishLegacyTurn();
  co_return s;
}

// rank, parent, world, tree neighbours, ring prev/next (-1 when there is none or it is self).
void LegacySession::SendAssignment() {
  const topo::WorkerLinks& links = job_.roster().topology()[rank_];
  SendInt(rank_);
  SendInt(links.parent);
  SendInt(job_.roster().num_workers());
  SendInt(static_cast<std::int32_t>(links.tree_neighbours.size()));
  for (std::int32_t n : links.tree_neighbours) SendInt(n);
  SendInt(links.ring_prev == rank_ ? -1 : links.ring_prev);
  SendInt(links.ring_next == rank_ ? -1 : links.ring_next);
}

asio::awaitable<Status> LegacySession::Negotiate() {
  const int world = job_.roster().num_workers();
  const auto peers = topo::LinkedPeers(job_.roster().topology()[rank_], rank_);
  for (int round = 0; round < kMaxNegotiationRounds; ++round) {
    auto n_good = co_await ReadInt("n_good");
    if (!n_good.ok()) co_return n_good.status();
    if (n_good.value() < 0 || n_good.value() > world) {
      co_return Status::Protocol("n_good " + std::to_string(n_good.value()) + " out of range");
    }
    std::vector<std::int32_t> good;
    for (int i = 0; i < n_good.value(); ++i) {
      auto r = co_await ReadInt("good rank");
      if (!r.ok()) co_return r.status();
      good.push_back(r.value());
    }
    const LinkPlan plan = job_.legacy_links().Plan(peers, good);
    SendInt(static_cast<std::int32_t>(plan.dial.size()));
    SendInt(plan.num_accept);
    for (const proto::PeerAddress& p : plan.dial) {
      SendString(p.host);
      SendInt(p.port);
      SendInt(p.rank);
    }
    auto n_errors = co_await ReadInt("n_errors");
    if (!n_errors.ok()) co_return n_errors.status();
    if (n_errors.value() != 0) continue;
    auto port = co_await ReadInt("listen port");
    if (!port.ok()) co_return port.status();
    job_.legacy_links().Commit(rank_, conn_->remote_ip(), port.value(), plan);
    co_return Status::Ok();
  }
  co_return Status::Network("rank " + std::to_string(rank_) + " could not reach its peers in " +
                            std::to_string(kMaxNegotiationRounds) + " rounds");
}

asio::awaitable<Result<std::int32_t>> LegacySession::ReadInt(const char* field) {
  FlushReply();
  std::int32_t v = 0;
  Status s =
      co_await conn_->Read(std::span(reinterpret_cast<std::uint8_t*>(&v), sizeof(v)), timeout_);
  if (!s.ok()) co_return s.WithContext(std::string("reading ") + field);
  co_return v;  // native byte order, as rabit sends raw ints
}

asio::awaitable<Result<std::string>> LegacySession::ReadString(const char* field,
                                                               std::uint32_t max_bytes) {
  auto n = co_await ReadInt(field);
  if (!n.ok()) co_return n.status();
  if (n.value() < 0 || static_cast<std::uint32_t>(n.value()) > max_bytes) {
    co_return Status::Protocol(std::string("string '") + field + "' has bad length " +
                               std::to_string(n.value()));
  }
  std::string s(static_cast<std::size_t>(n.value()), '\0');
  Status st = co_await conn_->Read(std::span(reinterpret_cast<std::uint8_t*>(s.data()), s.size()),
                                   timeout_);
  if (!st.ok()) co_return st.WithContext(std::string("reading ") + field);
  co_return s;
}

// Replies are gathered and go out as one write when the session next reads (or ends), so a
// reply of many ints is one TCP segment rather than one per int.
void LegacySession::SendInt(std::int32_t v) {
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(&v);
  reply_.insert(reply_.end(), bytes, bytes + sizeof(v));
}

void LegacySession::SendString(const std::string& s) {
  SendInt(static_cast<std::int32_t>(s.size()));
  reply_.insert(reply_.end(), s.begin(), s.end());
}

void LegacySession::FlushReply() {
  if (!reply_.empty()) conn_->Send(std::move(reply_), timeout_);
  reply_.clear();
}

void LegacySession::OnRankAssigned(int rank) {
  rank_ = rank;
  rank_known_.cancel();
}

// Legacy workers have no channel to hear an abort on; closing is all the tracker can do.
void LegacySession::Abort(const std::string&) { Stop(); }

void LegacySession::OnJobSucceeded() {
  if (command_ == "start" || command_ == "recover") return Stop();
  // Anything else (a print still arriving) completes by itself within the hello deadline.
}

void LegacySession::Stop() {
  conn_->Close();
  rank_known_.cancel();
}

}  // namespace treering::tracker
