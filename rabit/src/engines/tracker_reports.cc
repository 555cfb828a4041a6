#include "engines/tracker_reports.h"

namespace rabit::engine {

std::unique_ptr<status::Heartbeat> StartTrackerHeartbeat(const status::Progress* progress,
                                                         bootstrap::TrackerClient* tracker,
                                                         double interval_s) {
  if (tracker == nullptr || interval_s <= 0) return nullptr;
  return std::make_unique<status::Heartbeat>(
      progress, [tracker](const treering::proto::Report& r) { return tracker->SendReport(r); },
      interval_s);
}

void SendRoundReport(const status::Progress& progress, bootstrap::TrackerClient* tracker,
                     const RoundReport& round) {
  treering::proto::Report report = progress.Snapshot();
  report.done_round = round.round;
  report.total_rounds = round.total_rounds;
  report.comp_s = round.comp_s;
  report.sync_s = round.sync_s;
  for (const auto& [name, value] : round.metrics) report.metrics.push_back({name, value});
  (void)tracker->SendReport(report);
}

}  // namespace rabit::engine
