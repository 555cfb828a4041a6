// What both TCP engines (socket, robust) send the tracker's status page and hang watch
// (docs/status.md): the heartbeat of their Progress, and one Report per finished round. One
// copy, so the two engines' reports cannot drift apart.
#pragma once

#include <memory>

#include "bootstrap/tracker_client.h"
#include "rabit/engine.h"
#include "status/heartbeat.h"
#include "status/progress.h"

namespace rabit::engine {

// A heartbeat sending `progress` to `tracker` every `interval_s` seconds; null when there is
// no tracker or interval_s is 0 (rabit_status_interval=0: no reports at all).
std::unique_ptr<status::Heartbeat> StartTrackerHeartbeat(const status::Progress* progress,
                                                         bootstrap::TrackerClient* tracker,
                                                         double interval_s);

// One frame on the caller's thread (a few microseconds): the page's curves and timeline. A
// failed send is ignored: the engine's next collective reports a lost tracker.
void SendRoundReport(const status::Progress& progress, bootstrap::TrackerClient* tracker,
                     const RoundReport& round);

}  // namespace rabit::engine
