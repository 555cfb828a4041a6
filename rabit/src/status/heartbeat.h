// The heartbeat: a thread that sends this rank's Progress to the tracker every `interval`
// seconds, so the tracker sees a rank that is busy (data loading, a long round) apart from one
// that stopped (SIGSTOP, a frozen host: its heartbeats stop). One small frame per interval, no
// answer awaited; a failed send stops the heartbeat quietly (the engine's own calls report the
// lost tracker).
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "base/status.h"
#include "status/progress.h"

namespace rabit::status {

class Heartbeat {
 public:
  using Send = std::function<treering::Status(const treering::proto::Report&)>;
  Heartbeat(const Progress* progress, Send send, double interval_s);
  ~Heartbeat() { Stop(); }
  Heartbeat(const Heartbeat&) = delete;
  Heartbeat& operator=(const Heartbeat&) = delete;

  void Stop();  // joins the thread; safe to call twice

 private:
  void Run();

  const Progress* progress_;
  Send send_;
  double interval_s_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace rabit::status
