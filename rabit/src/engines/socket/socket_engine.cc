#include "engines/socket/socket_engine.h"

#include "bootstrap/message_links.h"
#include "bootstrap/partner_links.h"
#include "bootstrap/tracker_bootstrap.h"
#include "engines/tracker_reports.h"

namespace rabit::engine {

bootstrap::BootstrapConfig BootstrapConfigFor(const EngineParams& params) {
  bootstrap::BootstrapConfig config;
  config.tracker_host = params.tracker_uri;
  config.tracker_port = params.tracker_port;
  config.token = params.job_token;
  config.task_id = params.task_id;
  config.attempt = params.num_attempt;
  config.world_size = params.world_size;
  config.advertised_host = params.host_ip;
  config.timeout_seconds = params.bootstrap_timeout_seconds;
  config.socket_buffer_bytes = static_cast<int>(params.socket_buffer_bytes);
  return config;
}

collective::CollectiveOptions CollectiveOptionsFor(const EngineParams& params) {
  collective::CollectiveOptions options;
  options.timeout_seconds = params.timeout_seconds;
  options.allreduce.link.latency_seconds = params.link_latency_us * 1e-6;
  options.allreduce.link.bytes_per_second = params.link_bandwidth_mbps * 1e6 / 8;
  options.allreduce.forced = params.allreduce;
  options.allreduce.ring_min_bytes = params.ring_min_bytes;
  options.spin_microseconds = params.spin_microseconds;
  options.local_read = params.local_read;
  return options;
}

treering::Result<std::unique_ptr<Engine>> SocketEngine::Start(const EngineParams& params) {
  if (params.tracker_uri.empty()) {
    return Status::InvalidInput("rabit_engine=socket needs DMLC_TRACKER_URI / rabit_tracker_uri");
  }
  const bootstrap::BootstrapConfig config = BootstrapConfigFor(params);
  auto boot = bootstrap::BootstrapThroughTracker(config);
  if (!boot.ok()) return boot.status();
  collective::CollectiveOptions options = CollectiveOptionsFor(params);
  options.traffic = std::make_shared<transport::LinkTrafficTable>(boot->links.topology().world);
  auto tracker = std::move(boot->tracker);
  auto comm = collective::Communicator::Create(std::move(boot->links), options, tracker.get());
  if (!comm.ok()) {
    (void)tracker->ReportError(comm.status().message());
    return comm.status();
  }
  const std::string host =
      config.advertised_host.empty() ? tracker->LocalAddress() : config.advertised_host;
  SetLinkAddress(host);
  Status partners =
      bootstrap::LinkRecursivePartners(*comm.value(), kMessageLinkSeq, host, config, boot->epoch);
  if (!partners.ok()) {
    (void)tracker->ReportError(partners.message());
    return partners;
  }
  auto message_links =
      bootstrap::LinkMessagePeers(*comm.value(), kMessageLinkSeq, host, config, boot->epoch);
  if (!message_links.ok()) {
    (void)tracker->ReportError(message_links.status().message());
    return message_links.status();
  }
  transport::MailboxOptions mailbox;
  mailbox.rank = comm.value()->rank();
  mailbox.world = comm.value()->world();
  mailbox.timeout_seconds = options.timeout_seconds;
  mailbox.abort_watch = tracker.get();
  mailbox.spin_microseconds = options.spin_microseconds;
  // Local puts (mailbox.h) to ranks of this machine reached through one address, unless
  // rabit_local_read=false turns every cross-memory shortcut off.
  mailbox.local_peers.assign(static_cast<std::size_t>(mailbox.world), false);
  for (const transport::Link& link : message_links.value()) {
    mailbox.local_peers[link.peer] = params.local_read && comm.value()->SameMachine(link.peer) &&
                                     transport::LinkEndsShareAnAddress(&link);
  }
  auto messages = std::make_unique<transport::Mailbox>(mailbox, std::move(message_links.value()));
  auto engine = std::unique_ptr<SocketEngine>(
      new SocketEngine(std::move(tracker), std::move(comm.value()), std::move(messages)));
  engine->progress_.TrackLinks(options.traffic);
  engine->progress_.SetHangReport(params.hang_report_seconds);
  engine->StartHeartbeat(params.status_interval_seconds);
  return std::unique_ptr<Engine>(std::move(engine));
}

void SocketEngine::StartHeartbeat(double interval_s) {
  heartbeat_ = StartTrackerHeartbeat(&progress_, tracker_.get(), interval_s);
}

SocketEngine::~SocketEngine() {
  if (heartbeat_) heartbeat_->Stop();
}

void SocketEngine::ReportRound(const RoundReport& round) {
  if (heartbeat_) SendRoundReport(progress_, tracker_.get(), round);  // else: no reports
}

Status SocketEngine::Report(Status status) {
  if (!status.ok() && !reported_ && status.code() != treering::StatusCode::kInvalidInput) {
    reported_ = true;
    (void)tracker_->ReportError("rank " + std::to_string(Rank()) + ": " + status.message());
  }
  return status;
}

Status SocketEngine::Allreduce(void* buf, std::size_t count, DataType type, OpKind op,
                               const PrepareFn& prepare) {
  if (prepare) prepare();
  return Tracked(treering::proto::OpKind::kAllreduce, count * DataTypeSize(type),
                 [&](std::uint64_t seq) { return comm_->Allreduce(seq, buf, count, type, op); });
}

Status SocketEngine::Broadcast(void* buf, std::size_t bytes, int root) {
  return Tracked(treering::proto::OpKind::kBroadcast, bytes,
                 [&](std::uint64_t seq) { return comm_->Broadcast(seq, buf, bytes, root); });
}

Status SocketEngine::Allgather(void* buf, const std::vector<std::size_t>& slice_bytes) {
  std::uint64_t bytes = 0;
  for (const std::size_t b : slice_bytes) bytes += b;
  return Tracked(treering::proto::OpKind::kAllgather, bytes,
                 [&](std::uint64_t seq) { return comm_->Allgather(seq, buf, slice_bytes); });
}

Status SocketEngine::Reduce(void* buf, std::size_t count, DataType type, OpKind op, int root) {
  return Report(Engine::Reduce(buf, count, type, op, root));
}

Status SocketEngine::Gather(const void* send, void* recv,
                            const std::vector<std::size_t>& slice_bytes, int root) {
  return Report(Engine::Gather(send, recv, slice_bytes, root));
}

Status SocketEngine::Scatter(const void* send, void* recv,
                             const std::vector<std::size_t>& slice_bytes, int root) {
  return Report(Engine::Scatter(send, recv, slice_bytes, root));
}

Status SocketEngine::ReduceScatter(void* buf, const std::vector<std::size_t>& counts, DataType type,
                                   OpKind op) {
  std::uint64_t count = 0;
  for (const std::size_t c : counts) count += c;
  return Tracked(
      treering::proto::OpKind::kReduceScatter, count * DataTypeSize(type),
      [&](std::uint64_t seq) { return comm_->ReduceScatter(seq, buf, counts, type, op); });
}

Status SocketEngine::TrackerPrint(const std::string& msg) { return tracker_->Print(msg); }

Status SocketEngine::Shutdown() {
  if (shut_down_) return Status::Ok();
  shut_down_ = true;
  if (heartbeat_) heartbeat_->Stop();
  messages_->Close();
  comm_->Close();
  return tracker_->Shutdown();
}

}  // namespace rabit::engine
