// What a TrackerHandle names: treering's tracker server (tracker/server.h, the one
// treering-tracker runs) in this process, serving in a background thread from XGTrackerRun
// until the job ends, so a binding can start a job without Python or a separate program.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "base/status.h"
#include "handle_table.h"
#include "return_slots.h"
#include "tracker/server.h"

namespace treering::capi {

class TrackerObject {
 public:
  static constexpr HandleKind kKind = HandleKind::kTracker;

  // Parses XGTrackerCreate's config, binds and listens (throws ApiError naming the key).
  explicit TrackerObject(std::string_view config);
  // Stops a job still running and joins the thread: freeing never leaves a thread behind.
  ~TrackerObject();

  // {"dmlc_tracker_uri": host, "dmlc_tracker_port": port, "dmlc_num_worker": n,
  //  "rabit_job_token": token}: what each worker passes to XGCommunicatorInit.
  std::string WorkerArgs() const;
  // Starts serving in the background thread; a second Run is an error.
  void Run();
  // Blocks until the job ended (or `timeout_s` > 0 passed: ApiError). The job's failure (a
  // worker died, the bootstrap timed out) is an ApiError with the tracker's message.
  void WaitFor(double timeout_s);
  // Ends a running job now (its workers get an abort).
  void Stop();

  ReturnSlots returns;

 private:
  tracker::TrackerOptions options_;
  std::unique_ptr<tracker::TrackerServer> server_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable done_;
  bool running_ = false;
  bool finished_ = false;
  Status result_;
};

// "auto": the address of the interface that routes outward (a UDP socket "connected" to a
// non-local address, no packet sent), or 127.0.0.1 when there is none; else `host` itself.
std::string ResolveTrackerHost(const std::string& host);

}  // namespace treering::capi
