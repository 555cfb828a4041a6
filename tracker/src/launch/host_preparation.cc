#include "host_preparation.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <set>

#include "child_process.h"

namespace treering::launch {
namespace {

// One host's check (or staging) process and what it wrote.
struct Probe {
  Host host;
  Child child;
  std::string output;
  int code = -1;  // exit code, -1 while running
};

std::vector<Host> DistinctHosts(const std::vector<Host>& hosts) {
  std::set<std::pair<std::string, int>> seen;
  std::vector<Host> out;
  for (const Host& h : hosts) {
    if (seen.insert({h.name, h.port}).second) out.push_back(h);
  }
  return out;
}

std::vector<std::string> ProbeArgv(const SubmitOptions& o, const Host& h) {
  std::vector<std::string> ssh = SplitWords(o.ssh_command);
  const std::string dir = o.sync_dst_dir.empty() ? CurrentDir() : o.sync_dst_dir;
  std::string remote = CommandCheckScript(dir, o.command.front());
  if (!o.sync_dst_dir.empty()) {
    remote =
        "mkdir -p " + ShellQuote(dir) + " && tar -C " + ShellQuote(dir) + " -xf - && " + remote;
    // sh's $0 is the directory to pack, "$@" the ssh command line that unpacks it.
    std::vector<std::string> argv{"/bin/sh", "-c", "tar -C \"$0\" -cf - . | \"$@\"", CurrentDir()};
    ssh.insert(ssh.begin(), argv.begin(), argv.end());
  }
  ssh.insert(ssh.end(), {"-p", std::to_string(h.port), h.name, remote});
  return ssh;
}

void Drain(Probe& p, bool only_ready) {
  for (int* fd : {&p.child.out_fd, &p.child.err_fd}) {
    if (*fd < 0) continue;
    pollfd pfd{*fd, POLLIN, 0};
    if (only_ready && ::poll(&pfd, 1, 0) <= 0) continue;
    char buf[4096];
    const ssize_t n = ::read(*fd, buf, sizeof(buf));
    if (n > 0) {
      if (p.output.size() < 8192) p.output.append(buf, static_cast<std::size_t>(n));
    } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
      ::close(*fd);
      *fd = -1;
    }
  }
}

std::string LastLine(const std::string& text) {
  std::string s = text;
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  const auto nl = s.rfind('\n');
  return nl == std::string::npos ? s : s.substr(nl + 1);
}

std::string Reason(const Probe& p, double timeout_s) {
  if (p.code < 0) {
    return "no answer within " + std::to_string(static_cast<int>(timeout_s)) +
           " s (--host-timeout)";
  }
  const std::string said = LastLine(p.output);
  // ssh's own failures (host down, connection refused, authentication) exit 255.
  if (p.code == 255) return "ssh failed: " + (said.empty() ? "exit code 255" : said);
  return said.empty() ? "exit code " + std::to_string(p.code) : said;
}

// Runs every probe until all ended or the deadline; stragglers are killed (their whole group).
void RunProbes(std::vector<Probe>& probes, double timeout_s) {
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(static_cast<long long>(timeout_s * 1000));
  for (;;) {
    std::vector<pollfd> fds;
    bool running = false;
    for (Probe& p : probes) {
      if (p.code >= 0) continue;
      running = true;
      for (int fd : {p.child.out_fd, p.child.err_fd, p.child.exit_fd}) {
        if (fd >= 0) fds.push_back({fd, POLLIN, 0});
      }
    }
    if (!running || std::chrono::steady_clock::now() >= deadline) break;
    ::poll(fds.data(), fds.size(), 50);
    for (Probe& p : probes) {
      if (p.code >= 0) continue;
      Drain(p, true);
      int status = 0;
      if (::waitpid(p.child.pid, &status, WNOHANG) == p.child.pid) {
        p.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        Drain(p, true);
      }
    }
  }
  for (Probe& p : probes) {
    if (p.code < 0) {
      SignalGroup(p.child.pid, SIGKILL);
      ::waitpid(p.child.pid, nullptr, 0);
    }
    for (int fd : {p.child.out_fd, p.child.err_fd, p.child.exit_fd, p.child.in_fd}) {
      if (fd >= 0) ::close(fd);
    }
  }
}

}  // namespace

std::string CommandCheckScript(const std::string& dir, const std::string& program) {
  const std::string d = ShellQuote(dir), p = ShellQuote(program);
  // A program with a slash is a path (relative to DIR); else PATH finds it, as exec will.
  const std::string test = program.find('/') != std::string::npos
                               ? "test -x " + p
                               : "command -v " + p + " >/dev/null 2>&1";
  return "{ cd " + d + " 2>/dev/null || { echo \"no directory \"" + d + "; exit 3; }; } && { " +
         test + " || { echo \"no command \"" + p + "\" in \"" + d + "; exit 4; }; }";
}

Status PrepareHosts(const SubmitOptions& o, const std::function<void(const std::string&)>& log) {
  auto hosts = ReadHostFile(o.host_file);
  if (!hosts.ok()) return hosts.status();
  if (SplitWords(o.ssh_command).empty()) return Status::InvalidInput("--ssh-command is empty");
  std::vector<Probe> probes;
  for (const Host& h : DistinctHosts(hosts.value())) {
    // A newline on stdin, then end of file: ssh must not read the launcher's terminal.
    auto child = SpawnChild(ProbeArgv(o, h), {}, {{}, "\n", false, SIGKILL});
    if (!child.ok()) return child.status().WithContext("host " + h.name);
    probes.push_back(Probe{h, child.value(), "", -1});
  }
  const auto started = std::chrono::steady_clock::now();
  RunProbes(probes, o.host_timeout_s);
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::string failures;
  for (const Probe& p : probes) {
    if (p.code == 0) continue;
    if (!failures.empty()) failures += "; ";
    failures += "host " + p.host.name + ": " + Reason(p, o.host_timeout_s);
  }
  if (!failures.empty()) {
    if (o.sync_dst_dir.empty() && (failures.find(": no directory ") != std::string::npos ||
                                   failures.find(": no command ") != std::string::npos)) {
      failures += " (use --sync-dst-dir DIR to copy the working directory to the hosts)";
    }
    return Status::Network(failures);
  }
  char line[160];
  std::snprintf(line, sizeof(line), " %zu host(s) in %.2f s", probes.size(), took);
  log(o.sync_dst_dir.empty()
          ? "[submit] found " + o.command.front() + " on" + line
          : "[submit] staged " + CurrentDir() + " to " + o.sync_dst_dir + " on" + line);
  return Status::Ok();
}

}  // namespace treering::launch
