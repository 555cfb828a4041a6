#include "child_process.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>

extern char** environ;

namespace treering::launch {
namespace {

std::vector<std::string> MergedEnvironment(const EnvList& extra) {
  std::map<std::string, std::string> merged;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string kv(*e);
    const auto eq = kv.find('=');
    if (eq != std::string::npos) merged[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  for (const auto& [k, v] : extra) merged[k] = v;
  std::vector<std::string> out;
  for (const auto& [k, v] : merged) out.push_back(k + "=" + v);
  return out;
}

std::vector<char*> CStrings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// Runs in the forked child: only async-signal-safe calls until exec.
[[noreturn]] void ExecChild(int in_r, int out_w, int err_w, char** argv, char** envp,
                            const cpu_set_t* cpus, int death_signal, pid_t parent) {
  ::setpgid(0, 0);
  if (death_signal != 0) {
    ::prctl(PR_SET_PDEATHSIG, death_signal);
    // The launcher may have died between fork and prctl: then no signal will ever come.
    if (::getppid() != parent) ::_exit(128 + death_signal);
  }
  if (in_r >= 0) ::dup2(in_r, STDIN_FILENO);
  ::dup2(out_w, STDOUT_FILENO);
  ::dup2(err_w, STDERR_FILENO);
  if (cpus != nullptr && ::sched_setaffinity(0, sizeof(*cpus), cpus) != 0) {
    const char msg[] = "treering-submit: warning: cannot pin the worker to its CPUs\n";
    [[maybe_unused]] ssize_t n = ::write(STDERR_FILENO, msg, sizeof(msg) - 1);
  }
  ::signal(SIGINT, SIG_DFL);
  ::signal(SIGTERM, SIG_DFL);
  ::signal(SIGPIPE, SIG_DFL);
  ::execvpe(argv[0], argv, envp);
  const char msg[] = "treering-submit: cannot execute the worker command\n";
  [[maybe_unused]] ssize_t n = ::write(STDERR_FILENO, msg, sizeof(msg) - 1);
  ::_exit(127);
}

// A pipe whose read end holds `data`, then end of file unless `*keep_w` is asked for (it gets
// the write end). Written before the fork, while we hold the read end too: no reader can have
// gone away yet (no SIGPIPE), and data this small (a token) fits the pipe buffer, so the write
// cannot block. Both ends are close-on-exec: no other child inherits the write end.
Result<int> StdinPipe(const std::string& data, int* keep_w) {
  int in[2];
  if (::pipe2(in, O_CLOEXEC) != 0) return Status::IoError(std::strerror(errno));
  const ssize_t n = ::write(in[1], data.data(), data.size());
  if (keep_w != nullptr && n == static_cast<ssize_t>(data.size())) {
    *keep_w = in[1];
  } else {
    ::close(in[1]);
  }
  if (n != static_cast<ssize_t>(data.size())) {
    ::close(in[0]);
    return Status::IoError("cannot fill the worker's stdin pipe");
  }
  return in[0];
}

}  // namespace

Result<Child> SpawnChild(const std::vector<std::string>& argv_in, const EnvList& env,
                         const ChildSetup& setup) {
  const std::vector<int>& cpus = setup.cpus;
  if (argv_in.empty()) return Status::InvalidInput("empty worker command");
  std::vector<std::string> argv_strings = argv_in;
  std::vector<std::string> env_strings = MergedEnvironment(env);
  std::vector<char*> argv = CStrings(argv_strings);
  std::vector<char*> envp = CStrings(env_strings);
  int in_r = -1, in_w = -1;
  if (!setup.stdin_data.empty()) {
    auto in = StdinPipe(setup.stdin_data, setup.keep_stdin_open ? &in_w : nullptr);
    if (!in.ok()) return in.status();
    in_r = in.value();
  }
  int out[2] = {-1, -1}, err[2] = {-1, -1};
  if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) {
    const Status s = Status::IoError(std::strerror(errno));
    for (int fd : {in_r, in_w, out[0], out[1]}) {
      if (fd >= 0) ::close(fd);
    }
    return s;
  }
  cpu_set_t cpu_set;
  CPU_ZERO(&cpu_set);
  for (const int c : cpus) {
    if (c >= 0 && c < CPU_SETSIZE) CPU_SET(c, &cpu_set);
  }
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ExecChild(in_r, out[1], err[1], argv.data(), envp.data(), cpus.empty() ? nullptr : &cpu_set,
              setup.parent_death_signal, parent);
  }
  if (in_r >= 0) ::close(in_r);
  ::close(out[1]);
  ::close(err[1]);
  if (pid < 0) {
    ::close(out[0]);
    ::close(err[0]);
    if (in_w >= 0) ::close(in_w);
    return Status::IoError(std::string("fork: ") + std::strerror(errno));
  }
  ::setpgid(pid, pid);  // also here, so a signal right after spawn already has its group
  ::fcntl(out[0], F_SETFL, O_NONBLOCK);
  ::fcntl(err[0], F_SETFL, O_NONBLOCK);
  // A pidfd lets the supervisor sleep in poll() until output arrives *or* a child exits.
  const int exit_fd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (exit_fd >= 0) ::fcntl(exit_fd, F_SETFD, FD_CLOEXEC);
  return Child{pid, out[0], err[0], exit_fd, in_w};
}

void SignalGroup(pid_t pid, int sig) {
  if (pid > 0 && ::kill(-pid, sig) != 0) ::kill(pid, sig);
}

}  // namespace treering::launch
