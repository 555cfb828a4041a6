// ssh: one `ssh HOST SCRIPT` per task. The script reads the secrets from stdin, enters the
// working directory, exports the job's variables and runs the worker under a watchdog: the
// launcher keeps ssh's stdin open for the task's life, so end of file on it means the launcher
// or the session is gone (Ctrl-C, SIGKILL, a lost network), and the watchdog then stops the
// worker: SIGTERM, SIGKILL after the grace period. Without it a worker of a dropped session
// trains on (sshd sends no SIGHUP to a session without a terminal).
#include <signal.h>

#include <algorithm>
#include <cmath>

#include "launch.h"

namespace treering::launch {
namespace {

// Variables whose values must be on no command line (other local users read /proc/PID/cmdline,
// on both ends of ssh): the job token and the data server's token. They travel on ssh's stdin,
// one line each, in this order; the job token's line is always there (empty when unset).
bool IsSecret(const std::string& name) {
  return name == kTokenVariable || name == kDataTokenVariable;
}

std::vector<std::string> SecretsToSend(const EnvList& env) {
  std::vector<std::string> names{kTokenVariable};
  for (const auto& [k, v] : env) {
    if (k == kDataTokenVariable) names.push_back(k);
  }
  return names;
}

// `{ setsid COMMAND </dev/null & w=$!; { cat <&3; kill -TERM -$w; sleep G; kill -KILL -$w; } &
// ...`: fd 3 is the session's stdin (saved before `&` gives background jobs /dev/null). setsid
// (util-linux; without it only the worker's own pid is signalled) makes the worker the leader
// of a process group, so what it started goes too. The watchdog writes nowhere, so it never
// holds the session open; a normal exit kills it first.
std::string Watchdog(const std::string& command, double grace_s) {
  const std::string grace = std::to_string(static_cast<long>(std::ceil(std::max(grace_s, 0.0))));
  const auto signal = [](const char* sig) {
    return std::string("kill -") + sig + " -$w 2>/dev/null || kill -" + sig + " $w; ";
  };
  return "exec 3<&0 && { s=; command -v setsid >/dev/null 2>&1 && s=setsid; $s" + command +
         " </dev/null & w=$!; { cat <&3; " + signal("TERM") + "sleep " + grace + "; " +
         signal("KILL") + "} </dev/null >/dev/null 2>&1 & g=$!; wait $w; rc=$?; " +
         "kill $g 2>/dev/null; exit $rc; }";
}

// `read -r SECRET && export SECRET && ... && cd DIR && export K=V ... && <watchdog>`, every
// piece shell-quoted for the remote shell. The secrets' values are not in it: they arrive on
// stdin.
std::string RemoteScript(const SubmitOptions& o, const EnvList& env, const std::string& dir,
                         int attempt) {
  std::string script;
  for (const std::string& name : SecretsToSend(env)) {
    script.append("read -r ").append(name).append(" && export ").append(name).append(" && ");
  }
  script += "cd " + ShellQuote(dir) + " && export";
  // Appends, not `" " + x`: that form trips GCC 12's -Wrestrict false positive.
  for (const auto& [k, v] : env) {
    if (IsSecret(k)) continue;
    script.append(" ").append(k).append("=").append(ShellQuote(v));
  }
  script.append(" DMLC_NUM_ATTEMPT=").append(std::to_string(attempt)).append(" && ");
  std::string command;
  for (const std::string& arg : o.command) command.append(" ").append(ShellQuote(arg));
  // dmlc compatibility, as for local restarts: rabit-style workers parse key=value arguments.
  if (attempt > 0) command.append(" DMLC_NUM_ATTEMPT=").append(std::to_string(attempt));
  return script + Watchdog(command, o.grace_s);
}

std::string SecretLines(const EnvList& env) {
  std::string lines;
  for (const std::string& name : SecretsToSend(env)) {
    for (const auto& [k, v] : env) {
      if (k == name) lines += v;
    }
    lines += "\n";
  }
  return lines;
}

}  // namespace

Result<std::vector<Task>> SshTasks(const SubmitOptions& o, const EnvList& env) {
  if (o.host_file.empty()) return Status::InvalidInput("--cluster ssh needs --host-file");
  auto hosts = ReadHostFile(o.host_file);
  if (!hosts.ok()) return hosts.status();
  const auto ssh = SplitWords(o.ssh_command);
  if (ssh.empty()) return Status::InvalidInput("--ssh-command is empty");
  const std::string dir = o.sync_dst_dir.empty() ? CurrentDir() : o.sync_dst_dir;
  std::vector<Task> tasks;
  for (int i = 0; i < o.num_workers; ++i) {
    const Host& h = (*hosts)[i % hosts->size()];
    EnvList task_env = env;
    task_env.emplace_back("DMLC_TASK_ID", std::to_string(i));
    task_env.emplace_back("DMLC_NODE_HOST", h.name);
    Task t;
    t.label = "[rank " + std::to_string(i) + "] ";
    t.max_restarts = o.local_num_attempt;
    t.elastic = o.elastic;
    t.stdin_data = SecretLines(env);
    t.keep_stdin_open = true;
    t.parent_death_signal = SIGTERM;
    t.where = " on host " + h.name;
    t.argv_for_attempt = [o, ssh, h, task_env, dir](int attempt) {
      std::vector<std::string> argv = ssh;
      argv.insert(argv.end(),
                  {"-p", std::to_string(h.port), h.name, RemoteScript(o, task_env, dir, attempt)});
      return argv;
    };
    t.argv = t.argv_for_attempt(0);
    tasks.push_back(std::move(t));
  }
  return tasks;
}

}  // namespace treering::launch
