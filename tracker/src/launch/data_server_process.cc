#include "data_server_process.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <optional>

namespace treering::launch {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr char kProgram[] = "treering-data";
// SIGTERM makes `serve` close its connections and exit at once; the grace only covers a child
// that is stopped or stuck (then SIGKILL).
constexpr double kStopGraceS = 5;

bool IsExecutableFile(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

Clock::time_point After(double seconds) {
  return Clock::now() + std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
}

int ExitCode(int status) {
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Reads what the non-blocking *fd holds into `lines`; at end of file flushes and closes it.
template <typename Emit>
void Drain(int* fd, LineBuffer& lines, Emit emit) {
  char buf[4096];
  while (*fd >= 0) {
    const ssize_t n = ::read(*fd, buf, sizeof buf);
    if (n > 0) {
      lines.Feed(buf, static_cast<std::size_t>(n), emit);
    } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
      return;
    } else {
      lines.Flush(emit);
      ::close(*fd);
      *fd = -1;
    }
  }
}

// Sleeps in poll() until the child's stdout or stderr has bytes (or closes), at most `ms`.
void AwaitOutput(const Child& c, int ms) {
  pollfd fds[2];
  nfds_t n = 0;
  for (int fd : {c.out_fd, c.err_fd}) {
    if (fd >= 0) fds[n++] = {fd, POLLIN, 0};
  }
  ::poll(fds, n, ms);
}

std::vector<std::string> ServeArgv(const DataServerSpec& spec) {
  std::vector<std::string> argv = {
      spec.program, "serve", spec.dir, "--host-ip", spec.host, "--port", std::to_string(spec.port)};
  if (!spec.token.empty()) argv.insert(argv.end(), {"--token-file", "/dev/stdin"});
  if (!spec.access_log) argv.push_back("--no-access-log");
  return argv;
}

}  // namespace

Result<std::string> FindDataServerProgram() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec && IsExecutableFile(self.parent_path() / kProgram)) {
    return (self.parent_path() / kProgram).string();
  }
  const char* path = std::getenv("PATH");
  const std::string dirs = path != nullptr ? path : "";
  for (std::size_t start = 0; start <= dirs.size();) {
    std::size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const std::string dir = dirs.substr(start, end - start);
    const fs::path candidate = fs::path(dir.empty() ? "." : dir) / kProgram;  // POSIX: "" is .
    if (IsExecutableFile(candidate)) return fs::absolute(candidate, ec).string();
    start = end + 1;
  }
  const std::string where = ec ? "this executable" : self.string();
  return Status::IoError(std::string("cannot find ") + kProgram + " (neither beside " + where +
                         " nor on PATH)");
}

Result<std::uint16_t> ParseServingLine(const std::string& line) {
  const Status bad = Status::Protocol("treering-data serve printed '" + line +
                                      "', not 'serving DIR at http://HOST:PORT/'");
  if (line.rfind("serving ", 0) != 0 || line.find(" at http://") == std::string::npos ||
      line.back() != '/') {
    return bad;
  }
  const std::size_t colon = line.rfind(':', line.size() - 2);
  const std::string digits = line.substr(colon + 1, line.size() - colon - 2);
  if (digits.empty() || digits.size() > 5 ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return std::isdigit(c) != 0; })) {
    return bad;
  }
  const unsigned long port = std::stoul(digits);
  if (port == 0 || port > 65535) return bad;
  return static_cast<std::uint16_t>(port);
}

DataServerProcess::DataServerProcess(Child child, Emit emit)
    : child_(child), emit_(std::move(emit)) {}

DataServerProcess::~DataServerProcess() { Stop(); }

Result<std::unique_ptr<DataServerProcess>> DataServerProcess::Start(const DataServerSpec& spec,
                                                                    Emit emit) {
  ChildSetup setup;
  if (!spec.token.empty()) setup.stdin_data = spec.token + "\n";
  setup.parent_death_signal = SIGTERM;  // serve's own clean stop
  auto child = SpawnChild(ServeArgv(spec), {}, setup);
  if (!child.ok()) return child.status().WithContext("cannot start " + spec.program);
  std::unique_ptr<DataServerProcess> server(new DataServerProcess(*child, std::move(emit)));
  auto port = server->AwaitPort(spec);
  if (!port.ok()) return port.status();  // the destructor stops and reaps the child
  server->port_ = *port;
  server->relay_ = std::thread([p = server.get()] { p->Relay(); });
  return server;
}

Result<std::uint16_t> DataServerProcess::AwaitPort(const DataServerSpec& spec) {
  std::optional<Result<std::uint16_t>> port;
  std::string said;  // the child's last stderr line: why it did not start
  const auto on_out = [&](const std::string& line) {
    if (!port) port = ParseServingLine(line);
  };
  const auto on_err = [&](const std::string& line) {
    said = line;
    if (spec.access_log) emit_(line);
  };
  const auto deadline = After(spec.start_timeout_s);
  while (!port && (child_.out_fd >= 0 || child_.err_fd >= 0)) {
    if (Clock::now() >= deadline) {
      return Status::Timeout("treering-data serve printed no address within " +
                             std::to_string(static_cast<int>(spec.start_timeout_s)) + " s" +
                             (said.empty() ? "" : " (it said: " + said + ")"));
    }
    AwaitOutput(child_, 50);
    Drain(&child_.out_fd, out_, on_out);
    Drain(&child_.err_fd, err_, on_err);
  }
  if (port) return *port;
  // Both outputs closed before the address came: the child is exiting.
  const std::optional<int> code = Reap(After(1));
  const std::string how = code ? "exited with code " + std::to_string(*code) : "closed its output";
  return Status::IoError("treering-data serve " + how + " before serving" +
                         (said.empty() ? "" : ": " + said));
}

std::optional<int> DataServerProcess::Reap(Clock::time_point deadline) {
  while (!exit_code_) {
    int status = 0;
    if (::waitpid(child_.pid, &status, WNOHANG) == child_.pid) {
      exit_code_ = ExitCode(status);
    } else if (Clock::now() >= deadline) {
      break;
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  return exit_code_;
}

void DataServerProcess::Relay() {
  while (child_.out_fd >= 0 || child_.err_fd >= 0) {
    AwaitOutput(child_, 200);
    Drain(&child_.out_fd, out_, emit_);
    Drain(&child_.err_fd, err_, emit_);
  }
}

void DataServerProcess::Stop() {
  if (stopped_) return;
  stopped_ = true;
  // A server that died during the job (workers then fail to connect) says so; after an exit
  // before serving, Start's error already did.
  if (relay_.joinable() && Reap(Clock::now())) {
    emit_("[submit] the data server (treering-data serve, pid " + std::to_string(child_.pid) +
          ") exited during the job with code " + std::to_string(*exit_code_));
  }
  if (!exit_code_) {
    SignalGroup(child_.pid, SIGTERM);
    if (!Reap(After(kStopGraceS))) {
      SignalGroup(child_.pid, SIGKILL);
      Reap(After(kStopGraceS));
    }
  }
  // The child is gone, so its pipes are at end of file and the relay thread ends.
  if (relay_.joinable()) relay_.join();
  for (int* fd : {&child_.out_fd, &child_.err_fd, &child_.exit_fd, &child_.in_fd}) {
    if (*fd >= 0) ::close(*fd);
    *fd = -1;
  }
}

}  // namespace treering::launch
