// StartRobustEngine: bootstraps through the tracker (a restarted worker, attempt > 0, asks for
// its old rank with a recover Hello) and re-links through the tracker's recovery epochs.
#include "engines/robust/robust_start.h"

#include <memory>

#include "bootstrap/partner_links.h"
#include "bootstrap/tracker_bootstrap.h"
#include "engines/robust/robust_engine.h"
#include "engines/socket/socket_engine.h"

namespace rabit::engine {

treering::Result<std::unique_ptr<Engine>> StartRobustEngine(const EngineParams& params) {
  if (params.tracker_uri.empty()) {
    return Status::InvalidInput("rabit_engine=robust needs DMLC_TRACKER_URI / rabit_tracker_uri");
  }
  bootstrap::BootstrapConfig config = BootstrapConfigFor(params);
  config.elastic = params.elastic || params.elastic_join;
  auto boot = bootstrap::BootstrapThroughTracker(config);
  if (!boot.ok()) return boot.status();
  RobustOptions options;
  options.collective = CollectiveOptionsFor(params);
  options.attempt = params.num_attempt;
  // A restarted worker that got in before ranks were assigned joined the first linking with
  // everyone else: nobody holds anything, nothing to recover.
  options.rejoined = boot->epoch > 0 && !params.elastic_join;
  options.local_replica = params.local_replica;
  options.status_interval_s = params.status_interval_seconds;
  options.hang_report_s = params.hang_report_seconds;
  options.mocks = params.mocks;
  options.elastic = params.elastic || params.elastic_join;
  options.joining = params.elastic_join;
  const int rank = boot->links.topology().rank;
  SetLinkAddress(config.advertised_host.empty() ? boot->tracker->LocalAddress()
                                                : config.advertised_host);
  bootstrap::TrackerClient* tracker = boot->tracker.get();
  // A recovery epoch waits for restarted workers: bounded like a collective, by rabit_timeout.
  bootstrap::BootstrapConfig relink_config = config;
  relink_config.timeout_seconds = std::max(params.timeout_seconds, config.timeout_seconds);
  // An elastic job's rank changes when the world shrinks: ask under the current one.
  auto current_rank = std::make_shared<int>(rank);
  Relinker relink = [tracker, relink_config, current_rank] {
    auto links = bootstrap::RelinkThroughTracker(tracker, relink_config, *current_rank);
    if (links.ok()) *current_rank = links->topology().rank;
    return links;
  };
  // Epoch 0 in the partner links' handshake: they are made after this epoch's links are up,
  // to fresh listeners whose ports only this epoch's ranks learn (its address Allgather), and
  // the job token is still proven both ways, so a stale peer cannot reach them.
  options.link_partners = [tracker, relink_config](collective::Communicator& comm) {
    const std::string host = relink_config.advertised_host.empty() ? tracker->LocalAddress()
                                                                   : relink_config.advertised_host;
    return bootstrap::LinkRecursivePartners(comm, 0, host, relink_config, 0);
  };
  auto engine = RobustEngine::Create(std::move(boot->links), std::move(relink), options,
                                     std::move(boot->tracker));
  if (!engine.ok()) return engine.status();
  return std::unique_ptr<Engine>(std::move(engine.value()));
}

}  // namespace rabit::engine
