// Runs the job's processes: relays their output line by line with the task's label, restarts a
// failed task up to its limit (with DMLC_NUM_ATTEMPT=k), and when a task fails for good or the
// job fails elsewhere (the tracker), terminates every process group: SIGTERM, then SIGKILL after
// a grace period. It never waits without a deadline, so it cannot hang after the last retry.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "child_process.h"
#include "launch.h"

namespace treering::launch {

struct SupervisorHooks {
  // Writes one finished output line (to_stderr: the line came from the worker's stderr).
  std::function<void(const std::string& line, bool to_stderr)> emit;
  // Polled often: a reason when the job failed outside the processes (e.g. the tracker).
  std::function<std::optional<std::string>()> external_failure;
  // Called once when a task failed for good (the launcher tells the tracker to abort).
  std::function<void(const std::string& reason)> on_task_failed;
};

class Supervisor {
 public:
  Supervisor(std::vector<Task> tasks, double grace_s, SupervisorHooks hooks);
  ~Supervisor();
  // Ok when every task exited with 0; else the first failure.
  Status Run();
  // SIGINT / SIGTERM make Run() stop every worker and fail with "interrupted".
  static void InstallSignalHandlers();

 private:
  struct Slot;
  struct Stream {
    Slot* slot;
    bool is_err;
  };
  void StartTask(Slot& slot);
  void PumpOutput(int timeout_ms);
  void ReadStream(const Stream& stream);
  void ReapChildren();
  void OnExit(Slot& slot, int code);
  void Fail(const std::string& reason);
  void EnforceTermination();

  std::vector<Slot> slots_;
  double grace_s_;
  SupervisorHooks hooks_;
  std::string failure_;
  bool terminating_ = false;
  std::chrono::steady_clock::time_point kill_at_;
};

}  // namespace treering::launch
