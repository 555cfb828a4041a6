// What each cluster type runs. local: the command itself, N times, restartable. mpi: one
// mpirun that starts N copies (the tracker stays here). ssh: one ssh per task (ssh_tasks.cc).
#include <signal.h>
#include <unistd.h>

#include <climits>
#include <sstream>

#include "cpu_binding.h"
#include "host_route.h"
#include "launch.h"

namespace treering::launch {
namespace {

std::string Label(int rank) { return "[rank " + std::to_string(rank) + "] "; }

std::vector<Task> LocalTasks(const SubmitOptions& o, const EnvList& env) {
  std::vector<std::vector<int>> shares;
  if (o.bind_to == "core") shares = CpuShares(AllowedCpus(), o.num_workers);
  std::vector<Task> tasks;
  for (int i = 0; i < o.num_workers; ++i) {
    Task t;
    t.label = Label(i);
    t.argv = o.command;
    t.env = env;
    t.max_restarts = o.local_num_attempt;
    t.elastic = o.elastic;
    t.append_attempt = true;
    t.parent_death_signal = SIGKILL;
    t.env.emplace_back("DMLC_TASK_ID", std::to_string(i));
    if (!shares.empty()) t.cpus = shares[i];
    tasks.push_back(std::move(t));
  }
  return tasks;
}

Task MpiTask(const SubmitOptions& o, const EnvList& env) {
  Task t;
  t.argv = {"mpirun", "-n", std::to_string(o.num_workers), "--oversubscribe"};
  if (!o.host_file.empty()) t.argv.insert(t.argv.end(), {"--hostfile", o.host_file});
  if (::geteuid() == 0) t.argv.push_back("--allow-run-as-root");
  // Open MPI starts its daemons on the hosts with the same ssh as --cluster ssh (its key and
  // options), and keeps its own TCP traffic on the subnet that reaches them, not on whatever
  // other interface a host has (a container's eth0 the hosts cannot reach).
  if (o.ssh_command_given) t.argv.insert(t.argv.end(), {"--mca", "plm_rsh_agent", o.ssh_command});
  if (!o.host_file.empty() && !IsLoopback(o.host_ip)) {
    if (o.host_ip.find(':') != std::string::npos) {
      // Open MPI 4.1 parses *_if_include CIDRs as IPv4 only (an IPv6 one matches no
      // interface and mpirun stops): a job reached over IPv6 keeps its traffic on IPv6.
      t.argv.insert(t.argv.end(), {"--mca", "btl_tcp_disable_family", "4", "--mca",
                                   "oob_tcp_disable_ipv4_family", "1"});
    } else if (auto subnet = SubnetOf(o.host_ip); subnet.ok()) {
      t.argv.insert(t.argv.end(), {"--mca", "btl_tcp_if_include", subnet.value(), "--mca",
                                   "oob_tcp_if_include", subnet.value()});
    }
  }
  // `-x NAME` exports mpirun's own value of NAME: the values (the token among them) travel in
  // mpirun's environment, never on its command line.
  for (const auto& [k, v] : env) t.argv.insert(t.argv.end(), {"-x", k});
  t.env = env;
  t.argv.insert(t.argv.end(), o.command.begin(), o.command.end());
  t.parent_death_signal = SIGTERM;  // mpirun then stops its ranks
  return t;
}

// mpirun refuses a host file naming a host by an IPv6 address (its node-name regex allows
// letters, digits, '.' and '-' only) with a page of text and no host named: say it first.
Status CheckMpiHostNames(const SubmitOptions& o) {
  if (o.host_file.empty()) return Status::Ok();
  auto hosts = ReadHostFile(o.host_file);
  if (!hosts.ok()) return hosts.status();
  for (const Host& h : hosts.value()) {
    if (h.name.find(':') == std::string::npos) continue;
    return Status::InvalidInput(o.host_file + ": host '" + h.name +
                                "' is an IPv6 address; Open MPI takes IPv6 hosts by name only: "
                                "give each a name (/etc/hosts or DNS) and list the names");
  }
  return Status::Ok();
}

}  // namespace

std::vector<std::string> SplitWords(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

std::string CurrentDir() {
  char buf[PATH_MAX];
  return ::getcwd(buf, sizeof(buf)) ? std::string(buf) : std::string(".");
}

Result<std::vector<Task>> BuildTasks(const SubmitOptions& o, const EnvList& job_env) {
  if (o.command.empty()) return Status::InvalidInput("no worker command given after --");
  if (o.cluster == "local") return LocalTasks(o, job_env);
  if (o.cluster == "mpi") {
    if (Status s = CheckMpiHostNames(o); !s.ok()) return s;
    return std::vector<Task>{MpiTask(o, job_env)};
  }
  if (o.cluster == "ssh") return SshTasks(o, job_env);
  return Status::InvalidInput("unknown --cluster '" + o.cluster + "' (local, mpi or ssh)");
}

}  // namespace treering::launch
