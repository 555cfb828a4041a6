// What each cluster type runs. local: the command itself, N times, restartable. mpi: one
// mpirun that starts N copies (the tracker stays here). ssh: one ssh per task.
#include <signal.h>
#include <unistd.h>

#include <climits>
#include <sstream>

#include "cpu_binding.h"
#include "launch.h"

namespace treering::launch {
namespace {

std::string Label(int rank) { return "[rank " + std::to_string(rank) + "] "; }

std::vector<std::string> SplitWords(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

bool HasKey(const EnvList& env, const std::string& key) {
  for (const auto& kv : env) {
    if (kv.first == key) return true;
  }
  return false;
}

// The launcher states a fact, the engine decides what to make of it: this worker has cores of
// its own (rabit_pinned; rabit/src/engine_params.h picks the pair exchange for it). A user's
// --env of the same name wins.
constexpr char kPinnedVariable[] = "TREERING_PINNED";

std::vector<Task> LocalTasks(const SubmitOptions& o, const EnvList& env) {
  std::vector<std::vector<int>> shares;
  if (o.bind_to == "core") shares = CpuShares(AllowedCpus(), o.num_workers);
  std::vector<Task> tasks;
  for (int i = 0; i < o.num_workers; ++i) {
    Task t{Label(i), o.command, env, o.local_num_attempt, true, {}, {}, SIGKILL};
    t.env.emplace_back("DMLC_TASK_ID", std::to_string(i));
    if (!shares.empty()) {
      t.cpus = shares[i];
      if (!HasKey(env, kPinnedVariable)) t.env.emplace_back(kPinnedVariable, "1");
    }
    tasks.push_back(std::move(t));
  }
  return tasks;
}

Task MpiTask(const SubmitOptions& o, const EnvList& env) {
  Task t;
  t.argv = {"mpirun", "-n", std::to_string(o.num_workers), "--oversubscribe"};
  if (!o.host_file.empty()) t.argv.insert(t.argv.end(), {"--hostfile", o.host_file});
  if (::geteuid() == 0) t.argv.push_back("--allow-run-as-root");
  // `-x NAME` exports mpirun's own value of NAME: the values (the token among them) travel in
  // mpirun's environment, never on its command line.
  for (const auto& [k, v] : env) t.argv.insert(t.argv.end(), {"-x", k});
  t.env = env;
  t.argv.insert(t.argv.end(), o.command.begin(), o.command.end());
  t.parent_death_signal = SIGTERM;  // mpirun then stops its ranks
  return t;
}

std::string CurrentDir() {
  char buf[PATH_MAX];
  return ::getcwd(buf, sizeof(buf)) ? std::string(buf) : std::string(".");
}

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

// `read -r SECRET && export SECRET && ... && cd DIR && export K=V ... && COMMAND`, every piece
// shell-quoted for the remote shell. The secrets' values are not in it: they arrive on stdin.
std::string RemoteScript(const SubmitOptions& o, const EnvList& env) {
  std::string script;
  for (const std::string& name : SecretsToSend(env)) {
    script.append("read -r ").append(name).append(" && export ").append(name).append(" && ");
  }
  script += "cd " + ShellQuote(CurrentDir()) + " && export";
  // Appends, not `" " + x`: that form trips GCC 12's -Wrestrict false positive.
  for (const auto& [k, v] : env) {
    if (IsSecret(k)) continue;
    script.append(" ").append(k).append("=").append(ShellQuote(v));
  }
  script += " &&";
  for (const std::string& arg : o.command) script.append(" ").append(ShellQuote(arg));
  return script;
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

Result<std::vector<Task>> SshTasks(const SubmitOptions& o, const EnvList& env) {
  if (o.host_file.empty()) return Status::InvalidInput("--cluster ssh needs --host-file");
  auto hosts = ReadHostFile(o.host_file);
  if (!hosts.ok()) return hosts.status();
  const auto ssh = SplitWords(o.ssh_command);
  if (ssh.empty()) return Status::InvalidInput("--ssh-command is empty");
  std::vector<Task> tasks;
  for (int i = 0; i < o.num_workers; ++i) {
    const Host& h = (*hosts)[i % hosts->size()];
    EnvList task_env = env;
    task_env.emplace_back("DMLC_TASK_ID", std::to_string(i));
    task_env.emplace_back("DMLC_NODE_HOST", h.name);
    Task t{Label(i), ssh, {}, 0, false, {}, SecretLines(env), SIGTERM};
    t.argv.insert(t.argv.end(), {"-p", std::to_string(h.port), h.name, RemoteScript(o, task_env)});
    tasks.push_back(std::move(t));
  }
  return tasks;
}

}  // namespace

Result<std::vector<Task>> BuildTasks(const SubmitOptions& o, const EnvList& job_env) {
  if (o.command.empty()) return Status::InvalidInput("no worker command given after --");
  if (o.cluster == "local") return LocalTasks(o, job_env);
  if (o.cluster == "mpi") return std::vector<Task>{MpiTask(o, job_env)};
  if (o.cluster == "ssh") return SshTasks(o, job_env);
  return Status::InvalidInput("unknown --cluster '" + o.cluster + "' (local, mpi or ssh)");
}

}  // namespace treering::launch
