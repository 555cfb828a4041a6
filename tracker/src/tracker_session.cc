#include "tracker_session.h"

#include <cstring>

#include "admission.h"
#include "legacy_session.h"
#include "status/status_session.h"

namespace treering::tracker {
namespace {

std::uint32_t ReadLe32(const std::array<std::uint8_t, 4>& b) {
  return b[0] | (b[1] << 8) | (b[2] << 16) | (static_cast<std::uint32_t>(b[3]) << 24);
}

std::string DescribeJunk(const std::array<std::uint8_t, 4>& b) {
  const std::string text(b.begin(), b.end());
  if (text == "GET " || text == "POST" || text == "HEAD" || text == "PUT ") {
    return "an HTTP request, not a tracker client";
  }
  char hex[32];
  std::snprintf(hex, sizeof(hex), "%02x %02x %02x %02x", b[0], b[1], b[2], b[3]);
  return std::string("unknown magic bytes ") + hex;
}

}  // namespace

TrackerSession::TrackerSession(std::uint64_t id, tcp::socket socket, JobCoordinator& job,
                               SessionManager& sessions)
    : Session(id),
      conn_(std::make_shared<Connection>(std::move(socket))),
      job_(job),
      sessions_(sessions),
      hello_timeout_(static_cast<long long>(job.options().hello_timeout_s * 1000)) {}

void TrackerSession::Start() {
  asio::co_spawn(
      conn_->executor(),
      [self = std::static_pointer_cast<TrackerSession>(shared_from_this())]() {
        return self->Run();
      },
      asio::detached);
}

std::string TrackerSession::Who() const { return DescribeWorker(rank_, task_id_, conn_->peer()); }

asio::awaitable<void> TrackerSession::Run() {
  std::array<std::uint8_t, 4> magic{};
  Status s = co_await conn_->Read(magic, hello_timeout_);
  if (!s.ok()) {
    job_.Log("dropped " + conn_->peer() + " before its hello: " + s.message());
    co_return Ended(Status::Ok());
  }
  if (ReadLe32(magic) == proto::kLegacyMagic && job_.options().legacy) {
    handed_over_ = true;
    sessions_.Remove(id());
    sessions_.StartAnonymous(std::make_shared<LegacySession>(id(), conn_, job_, sessions_),
                             job_.options().max_anonymous_connections);
    co_return;
  }
  if (const std::string text(magic.begin(), magic.end()); text == "GET " || text == "HEAD") {
    // The status page (docs/status.md): an anonymous, read-only HTTP request.
    handed_over_ = true;
    sessions_.Remove(id());
    sessions_.StartAnonymous(std::make_shared<StatusSession>(id(), conn_, text, job_, sessions_),
                             job_.options().max_anonymous_connections);
    co_return;
  }
  s = co_await Admit(magic);
  if (!s.ok()) co_return Refuse(s.message());
  sessions_.Identified(id());
  while (conn_->open()) {
    auto frame = co_await ReadFrame({}, kNoDeadline);
    s = frame.ok() ? Handle(frame.value()) : frame.status();
    if (!s.ok()) co_return Ended(s);
  }
  Ended(Status::Network("connection closed"));
}

// Reads one frame; `prefix` holds bytes already read. Waiting for the first byte may take
// `first_wait` (kNoDeadline: forever); the rest must follow within the hello deadline.
asio::awaitable<Result<Frame>> TrackerSession::ReadFrame(std::vector<std::uint8_t> prefix,
                                                         Millis first_wait,
                                                         std::uint64_t max_payload) {
  std::vector<std::uint8_t> header = std::move(prefix);
  if (header.empty()) {
    header.resize(1);
    Status s = co_await conn_->Read(header, first_wait);
    if (!s.ok()) co_return s;
  }
  const std::size_t have = header.size();
  header.resize(proto::kHeaderBytes);
  Status s = co_await conn_->Read(std::span(header).subspan(have), hello_timeout_);
  if (!s.ok()) co_return s;
  auto h = proto::DecodeHeader(header);
  if (!h.ok()) co_return h.status();
  if (h->payload_bytes > max_payload) {
    co_return Status::Protocol(proto::KindName(h->kind) + " announces " +
                               std::to_string(h->payload_bytes) + " payload bytes, over the " +
                               std::to_string(max_payload) + " allowed before the Hello");
  }
  Frame frame{h.value(), std::vector<std::uint8_t>(h->payload_bytes)};
  s = co_await conn_->Read(frame.payload, hello_timeout_);
  if (!s.ok()) co_return s;
  co_return frame;
}

asio::awaitable<Status> TrackerSession::Admit(std::array<std::uint8_t, 4> magic) {
  if (ReadLe32(magic) != proto::kMagic) {
    co_return Status::Protocol(ReadLe32(magic) == proto::kLegacyMagic
                                   ? "legacy clients are disabled"
                                   : DescribeJunk(magic));
  }
  auto frame = co_await ReadFrame({magic.begin(), magic.end()}, hello_timeout_, kMaxHelloPayload);
  if (!frame.ok()) co_return frame.status();
  if (frame->header.kind != proto::Kind::kHello) {
    co_return Status::Protocol("expected Hello, got " + proto::KindName(frame->header.kind));
  }
  auto hello = proto::DecodeHello(frame->payload);
  if (!hello.ok()) co_return hello.status();
  task_id_ = hello->task_id;
  Status s = co_await Authenticate(frame->payload);
  if (!s.ok()) co_return s;
  s = CheckHello(hello.value());
  if (!s.ok()) co_return s;
  if (hello->command == proto::Command::kRecover && job_.roster().assigned()) {
    // A restarted worker: it takes over its old rank and waits for the epoch's Assign.
    auto rank = job_.OnRestartedHello(id(), hello.value());
    if (!rank.ok()) co_return rank.status();
    rank_ = rank.value();
    joined_ = true;
    co_return Status::Ok();
  }
  if (hello->command == proto::Command::kRecover && hello->rank >= 0) {
    co_return Status::InvalidInput("recover Hello for rank " + std::to_string(hello->rank) +
                                   " before ranks were assigned");
  }
  if (hello->command == proto::Command::kStart && job_.roster().assigned() &&
      job_.options().elastic) {
    // A worker joining a running elastic job: ranked at the next round boundary.
    s = job_.OnJoinerHello({id(), Dialect::kNative, hello->task_id, hello->host, hello->port});
    if (!s.ok()) co_return s;
    joined_ = true;
    co_return Status::Ok();
  }
  // A start Hello, or a worker restarted before the batch (recover, rank -1): it just joins.
  s = job_.Join({id(), Dialect::kNative, hello->task_id, hello->host, hello->port});
  if (!s.ok()) co_return s;
  joined_ = true;
  co_return Status::Ok();
}

// Challenge-response (tracker/auth.h): the worker proves it knows the token over our fresh
// nonce and its Hello, then we prove it over the same transcript. Nothing is checked or said
// about the job before the proof, and the token itself is never sent.
asio::awaitable<Status> TrackerSession::Authenticate(std::span<const std::uint8_t> hello_payload) {
  auto nonce = proto::NewNonce();
  if (!nonce.ok()) co_return nonce.status();
  conn_->Send(proto::Encode(proto::Challenge{nonce.value()}), hello_timeout_);
  auto frame = co_await ReadFrame({}, hello_timeout_, kMaxHelloPayload);
  if (!frame.ok()) co_return frame.status();
  if (frame->header.kind != proto::Kind::kProof) {
    co_return Status::Protocol("expected Proof, got " + proto::KindName(frame->header.kind));
  }
  auto proof = proto::DecodeProof(frame->payload);
  if (!proof.ok()) co_return proof.status();
  const std::string& token = job_.options().token;
  const proto::Mac expected =
      proto::HelloProof(token, proto::Prover::kWorker, nonce.value(), hello_payload);
  if (!proto::SameMac(proof->mac, expected)) co_return Status::Protocol("wrong job token");
  const proto::Mac ours =
      proto::HelloProof(token, proto::Prover::kTracker, nonce.value(), hello_payload);
  conn_->Send(proto::Encode(proto::Proof{ours}), hello_timeout_);
  co_return Status::Ok();
}

// The connection is authenticated when this runs (a later Hello rides the same connection).
Status TrackerSession::CheckHello(const proto::Hello& hello) const {
  if (hello.command != proto::Command::kStart && hello.command != proto::Command::kRecover) {
    return Status::Protocol("unknown Hello command " + std::to_string(int(hello.command)));
  }
  const int world = job_.options().num_workers;
  if (hello.world_size > 0 && hello.world_size != world) {
    return Status::InvalidInput("worker expects world size " + std::to_string(hello.world_size) +
                                ", the job has " + std::to_string(world));
  }
  if (hello.port == 0 && world > 1) return Status::InvalidInput("Hello without a peer port");
  return Status::Ok();
}

Status TrackerSession::Handle(const Frame& frame) {
  switch (frame.header.kind) {
    case proto::Kind::kPrint: {
      auto m = proto::DecodePrint(frame.payload);
      if (!m.ok()) return m.status();
      job_.OnPrint(rank_, m->message);
      return Status::Ok();
    }
    case proto::Kind::kError: {
      auto m = proto::DecodeErrorReport(frame.payload);
      if (!m.ok()) return m.status();
      blamed_.assign(m->ranks.begin(), m->ranks.end());
      return Status::Aborted("reported an error: " + m->message);
    }
    case proto::Kind::kReport: {
      // Shown on the status page only; before the rank assignment there is nothing to show.
      auto m = proto::DecodeReport(frame.payload);
      if (!m.ok()) return m.status();
      if (rank_ >= 0) job_.OnReport(rank_, m.value());
      return Status::Ok();
    }
    case proto::Kind::kShutdown: {
      auto m = proto::DecodeShutdown(frame.payload);
      if (!m.ok()) return m.status();
      if (shut_down_ || rank_ < 0) {
        job_.Log("ignored a " + std::string(shut_down_ ? "second " : "premature ") +
                 "shutdown from " + Who());
        return Status::Ok();
      }
      shut_down_ = true;
      return job_.OnShutdown(rank_);
    }
    case proto::Kind::kHello: {
      // A survivor asks to relink (its collective lost a link): it joins the recovery epoch.
      auto m = proto::DecodeHello(frame.payload);
      if (!m.ok()) return m.status();
      Status s = CheckHello(m.value());
      if (!s.ok()) return s;
      if (rank_ < 0 || m->command != proto::Command::kRecover ||
          (m->rank >= 0 && m->rank != rank_)) {
        return Status::Protocol("unexpected Hello from " + Who() + " (only a recover Hello " +
                                "with its own rank may follow the rank assignment)");
      }
      return job_.OnSurvivorHello(rank_, id(), m.value());
    }
    default:
      return Status::Protocol("unexpected " + proto::KindName(frame.header.kind) + " frame");
  }
}

void TrackerSession::OnRankAssigned(int rank) {
  rank_ = rank;
  conn_->Send(proto::Encode(job_.roster().AssignFor(rank, job_.epoch())), hello_timeout_);
}

void TrackerSession::Refuse(const std::string& reason) {
  job_.Log("rejected " + Who() + ": " + reason);
  conn_->Send(proto::Encode(proto::Reject{reason}), hello_timeout_);
  conn_->CloseAfterSends();
  sessions_.Remove(id());
}

// The connection is over. Before the batch that only loses a queued worker; after it, a
// worker that vanished without Shutdown (or sent Error or garbage) fails the whole job.
void TrackerSession::Ended(const Status& why) {
  sessions_.Remove(id());
  conn_->Close();
  if (job_.ended() || shut_down_ || dropped_) return;
  if (rank_ < 0) {
    if (!joined_ && why.ok()) return;  // already logged
    if (joined_) job_.Leave(id());
    const std::string reason = why.ok() ? "closed" : why.message();
    job_.Log("lost " + Who() + " before ranks were assigned: " + reason);
    return;
  }
  // A dropped connection is a lost process (restartable); an Error report, a malformed frame or
  // a refused recover Hello fails the job at once.
  const bool dropped = why.code() == StatusCode::kNetwork || why.code() == StatusCode::kTimeout;
  if (dropped) return job_.OnRankLost(rank_, id(), why.message());
  job_.OnWorkerFailed(rank_, why.message(), blamed_);
}

void TrackerSession::Abort(const std::string& reason) {
  if (handed_over_) return;
  if (joined_ && !shut_down_) conn_->Send(proto::Encode(proto::Abort{reason}), hello_timeout_);
  conn_->CloseAfterSends();
}

void TrackerSession::Stop() { conn_->Close(); }

void TrackerSession::OnResizePending() {
  if (rank_ >= 0 && !shut_down_) {
    conn_->Send(proto::Encode(proto::ResizePending{}), hello_timeout_);
  }
}

void TrackerSession::Drop() {
  dropped_ = true;
  rank_ = -1;
  conn_->Close();
}

}  // namespace treering::tracker
