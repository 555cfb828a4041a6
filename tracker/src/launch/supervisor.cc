#include "supervisor.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <thread>

#include "line_buffer.h"

namespace treering::launch {
namespace {

// How long (10 ms steps) a failed exit waits for the tracker to read the worker's own report.
constexpr int kReportWaitSteps = 20;

std::atomic<bool> g_interrupted{false};

extern "C" void OnStopSignal(int) { g_interrupted = true; }

}  // namespace

struct Supervisor::Slot {
  Task task;
  Child child;
  int attempt = 0;
  bool running = false;
  LineBuffer out, err;
};

Supervisor::Supervisor(std::vector<Task> tasks, double grace_s, SupervisorHooks hooks)
    : grace_s_(grace_s), hooks_(std::move(hooks)) {
  for (Task& t : tasks) slots_.push_back(Slot{std::move(t), {}, 0, false, {}, {}});
}

Supervisor::~Supervisor() = default;

void Supervisor::InstallSignalHandlers() {
  struct sigaction sa {};
  sa.sa_handler = OnStopSignal;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
}

void Supervisor::StartTask(Slot& slot) {
  std::vector<std::string> argv =
      slot.task.argv_for_attempt ? slot.task.argv_for_attempt(slot.attempt) : slot.task.argv;
  EnvList env = slot.task.env;
  env.emplace_back("DMLC_NUM_ATTEMPT", std::to_string(slot.attempt));
  if (slot.task.append_attempt && !slot.task.argv_for_attempt && slot.attempt > 0) {
    argv.push_back("DMLC_NUM_ATTEMPT=" + std::to_string(slot.attempt));
  }
  for (int* fd : {&slot.child.out_fd, &slot.child.err_fd}) {
    if (*fd >= 0) ::close(*fd);  // a previous attempt's pipe still held open by a grandchild
    *fd = -1;
  }
  auto child = SpawnChild(argv, env,
                          {slot.task.cpus, slot.task.stdin_data, slot.task.keep_stdin_open,
                           slot.task.parent_death_signal});
  if (!child.ok()) return Fail(slot.task.label + "cannot start: " + child.status().message());
  slot.child = child.value();
  slot.running = true;
}

Status Supervisor::Run() {
  for (Slot& s : slots_) StartTask(s);
  for (;;) {
    PumpOutput(50);
    ReapChildren();
    if (!terminating_ && g_interrupted) Fail("interrupted by a signal");
    if (!terminating_ && hooks_.external_failure) {
      if (auto reason = hooks_.external_failure()) Fail(*reason);
    }
    EnforceTermination();
    bool any_running = false;
    for (const Slot& s : slots_) any_running = any_running || s.running;
    if (!any_running) break;
  }
  PumpOutput(0);  // whatever the last exits left in the pipes
  for (Slot& s : slots_) {
    s.out.Flush([&](const std::string& l) { hooks_.emit(s.task.label + l, false); });
    s.err.Flush([&](const std::string& l) { hooks_.emit(s.task.label + l, true); });
    if (s.child.out_fd >= 0) ::close(s.child.out_fd);
    if (s.child.err_fd >= 0) ::close(s.child.err_fd);
  }
  return failure_.empty() ? Status::Ok() : Status::Aborted(failure_);
}

// Sleeps in poll() until a worker writes, closes a stream or exits (pidfd), or the timeout.
void Supervisor::PumpOutput(int timeout_ms) {
  std::vector<pollfd> fds;
  std::vector<Stream> streams;
  for (Slot& s : slots_) {
    if (s.child.out_fd >= 0)
      fds.push_back({s.child.out_fd, POLLIN, 0}), streams.push_back({&s, false});
    if (s.child.err_fd >= 0)
      fds.push_back({s.child.err_fd, POLLIN, 0}), streams.push_back({&s, true});
  }
  for (Slot& s : slots_) {
    if (s.running && s.child.exit_fd >= 0) fds.push_back({s.child.exit_fd, POLLIN, 0});
  }
  if (fds.empty()) {
    if (timeout_ms > 0) ::usleep(timeout_ms * 1000);
    return;
  }
  if (::poll(fds.data(), fds.size(), timeout_ms) <= 0) return;
  for (std::size_t i = 0; i < streams.size(); ++i) {  // exit fds only wake us up
    if (fds[i].revents != 0) ReadStream(streams[i]);
  }
}

void Supervisor::ReadStream(const Stream& stream) {
  Slot& slot = *stream.slot;
  int& fd = stream.is_err ? slot.child.err_fd : slot.child.out_fd;
  char buf[8192];
  const ssize_t n = ::read(fd, buf, sizeof(buf));
  if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
  if (n <= 0) {  // EOF or error: this stream is over
    ::close(fd);
    fd = -1;
    return;
  }
  LineBuffer& lines = stream.is_err ? slot.err : slot.out;
  lines.Feed(buf, static_cast<std::size_t>(n),
             [&](const std::string& line) { hooks_.emit(slot.task.label + line, stream.is_err); });
}

void Supervisor::ReapChildren() {
  for (Slot& s : slots_) {
    if (!s.running) continue;
    int status = 0;
    const pid_t r = ::waitpid(s.child.pid, &status, WNOHANG);
    if (r != s.child.pid) continue;
    s.running = false;
    if (s.child.exit_fd >= 0) ::close(s.child.exit_fd);
    s.child.exit_fd = -1;
    if (s.child.in_fd >= 0) ::close(s.child.in_fd);  // ssh: the remote watchdog's end of file
    s.child.in_fd = -1;
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    OnExit(s, code);
  }
}

void Supervisor::OnExit(Slot& slot, int code) {
  if (code == 0 || terminating_) return;
  if (slot.attempt < slot.task.max_restarts) {
    ++slot.attempt;
    hooks_.emit(slot.task.label + "exited with code " + std::to_string(code) + slot.task.where +
                    "; restart " + std::to_string(slot.attempt) + " of " +
                    std::to_string(slot.task.max_restarts),
                true);
    // The old pipes may still hold output; drain them before the new child takes the slot.
    for (int i = 0; i < 20 && (slot.child.out_fd >= 0 || slot.child.err_fd >= 0); ++i)
      PumpOutput(5);
    return StartTask(slot);
  }
  // A worker that fails tells the tracker why before it exits, and that report names the root
  // cause (the rank it waited for, and its host). Under load the tracker may not have read it
  // yet when the exit is reaped: give it a moment (bounded) before blaming the exit itself.
  if (hooks_.external_failure) {
    for (int i = 0; i < kReportWaitSteps && !hooks_.external_failure(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (auto reason = hooks_.external_failure()) return Fail(*reason);
  }
  const std::string who = slot.task.label.empty() ? "the worker command " : slot.task.label;
  if (slot.task.elastic) {  // the tracker drops the rank or fails the job (external_failure)
    hooks_.emit(who + "exited with code " + std::to_string(code) + slot.task.where +
                    "; elastic job: the tracker decides whether the others go on",
                true);
    return;
  }
  Fail(who + "exited with code " + std::to_string(code) + slot.task.where + " after " +
       std::to_string(slot.attempt + 1) + " attempt(s)");
  if (hooks_.on_task_failed) hooks_.on_task_failed(failure_);
}

void Supervisor::Fail(const std::string& reason) {
  if (failure_.empty()) failure_ = reason;
  if (terminating_) return;
  terminating_ = true;
  kill_at_ = std::chrono::steady_clock::now() +
             std::chrono::milliseconds(static_cast<long long>(grace_s_ * 1000));
  for (Slot& s : slots_) {
    if (s.running) SignalGroup(s.child.pid, SIGTERM);
  }
}

void Supervisor::EnforceTermination() {
  if (!terminating_ || std::chrono::steady_clock::now() < kill_at_) return;
  for (Slot& s : slots_) {
    if (s.running) SignalGroup(s.child.pid, SIGKILL);
  }
}

}  // namespace treering::launch
