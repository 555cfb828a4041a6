// --cluster slurm inside an allocation: what the allocation is (scontrol expands its node list
// and names the first node's address), and one restartable one-task srun step per worker.
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <sstream>

#include "child_process.h"
#include "host_route.h"
#include "slurm.h"

namespace treering::launch {
namespace {

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

void Drain(int fd, std::string* into) {
  char buf[4096];
  for (ssize_t n; (n = ::read(fd, buf, sizeof(buf))) > 0;) into->append(buf, n);
}

// scontrol's one-line form: "NodeName=n1 Arch=x86_64 ... NodeAddr=10.0.0.2 NodeHostName=..."
std::string Field(const std::string& line, const std::string& key) {
  std::istringstream in(line);
  for (std::string word; in >> word;) {
    if (word.rfind(key + "=", 0) == 0) return word.substr(key.size() + 1);
  }
  return "";
}

}  // namespace

CommandResult RunCommand(const std::vector<std::string>& argv, double timeout_s) {
  CommandResult r;
  auto child = SpawnChild(argv, {});
  if (!child.ok()) {
    r.err = argv[0] + ": " + child.status().message();
    return r;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  int status = 0;
  for (;;) {
    pollfd fds[2] = {{child->out_fd, POLLIN, 0}, {child->err_fd, POLLIN, 0}};
    ::poll(fds, 2, 20);
    Drain(child->out_fd, &r.out);
    Drain(child->err_fd, &r.err);
    if (::waitpid(child->pid, &status, WNOHANG) == child->pid) break;
    if (std::chrono::steady_clock::now() > deadline) {
      SignalGroup(child->pid, SIGKILL);
      ::waitpid(child->pid, &status, 0);
      r.err += argv[0] + ": no answer within " + std::to_string(timeout_s) + " s";
      status = -1;
      break;
    }
  }
  Drain(child->out_fd, &r.out);
  Drain(child->err_fd, &r.err);
  for (int fd : {child->out_fd, child->err_fd, child->exit_fd}) {
    if (fd >= 0) ::close(fd);
  }
  if (status != -1 && WIFEXITED(status)) r.code = WEXITSTATUS(status);
  return r;
}

std::string SlurmMessage(const std::string& err) {
  std::istringstream in(err);
  std::string chosen, last;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    last = line;
    if (line.find("error") != std::string::npos) chosen = line;
  }
  if (chosen.empty()) chosen = last;
  // "sbatch: error: X" / "srun: error: X" -> "X"
  for (const char* prefix : {": error: ", "error: "}) {
    if (auto at = chosen.find(prefix); at != std::string::npos && at < 16) {
      return chosen.substr(at + std::string(prefix).size());
    }
  }
  return chosen.empty() ? "no message" : chosen;
}

bool InSlurmAllocation() { return !Env("SLURM_JOB_ID").empty(); }

Result<std::vector<int>> ParseTasksPerNode(const std::string& text) {
  std::vector<int> counts;
  std::istringstream in(text);
  const auto bad = [&] {
    return Status::InvalidInput("SLURM_TASKS_PER_NODE '" + text + "' is not like 2(x3),1");
  };
  for (std::string part; std::getline(in, part, ',');) {
    int count = 0, repeat = 1;
    char x = 0, close = 0, open = 0;
    std::istringstream p(part);
    if (!(p >> count) || count <= 0) return bad();
    if (p >> open) {
      if (open != '(' || !(p >> x >> repeat >> close) || x != 'x' || close != ')' || repeat <= 0) {
        return bad();
      }
    }
    counts.insert(counts.end(), repeat, count);
  }
  if (counts.empty()) return bad();
  return counts;
}

Result<SlurmAllocation> ReadSlurmAllocation() {
  SlurmAllocation a;
  a.job_id = Env("SLURM_JOB_ID");
  // A job id that names no live allocation (a stale variable, a job that ended): say so now,
  // not as every srun's failure.
  CommandResult job = RunCommand({"scontrol", "show", "job", "-o", a.job_id}, 30);
  if (job.code != 0) return Status::InvalidInput("scontrol show job: " + SlurmMessage(job.err));
  const std::string nodelist =
      Env("SLURM_JOB_NODELIST").empty() ? Env("SLURM_NODELIST") : Env("SLURM_JOB_NODELIST");
  CommandResult hosts = RunCommand({"scontrol", "show", "hostnames", nodelist}, 30);
  if (hosts.code != 0) {
    return Status::InvalidInput("scontrol show hostnames: " + SlurmMessage(hosts.err));
  }
  std::istringstream in(hosts.out);
  for (std::string n; in >> n;) a.nodes.push_back(n);
  auto counts =
      ParseTasksPerNode(Env("SLURM_TASKS_PER_NODE").empty()
                            ? std::to_string(1) + "(x" + std::to_string(a.nodes.size()) + ")"
                            : Env("SLURM_TASKS_PER_NODE"));
  if (!counts.ok()) return counts.status();
  a.tasks_per_node = counts.value();
  if (a.nodes.empty() || a.tasks_per_node.size() != a.nodes.size()) {
    return Status::InvalidInput(
        "allocation " + a.job_id + ": " + std::to_string(a.nodes.size()) + " nodes in '" +
        nodelist + "' but " + std::to_string(a.tasks_per_node.size()) + " in SLURM_TASKS_PER_NODE");
  }
  for (int c : a.tasks_per_node) a.ntasks += c;
  return a;
}

std::vector<std::string> RankNodes(const SlurmAllocation& a, int n) {
  std::vector<std::string> slots;
  for (std::size_t i = 0; i < a.nodes.size(); ++i)
    slots.insert(slots.end(), a.tasks_per_node[i], a.nodes[i]);
  std::vector<std::string> out;
  for (int r = 0; r < n; ++r) out.push_back(slots[r % slots.size()]);
  return out;
}

Status ProbeSlurmSteps(const SlurmAllocation& a) {
  std::string nodes;
  for (const std::string& n : a.nodes) nodes.append(nodes.empty() ? "" : ",").append(n);
  const std::string count = std::to_string(a.nodes.size());
  CommandResult r = RunCommand(
      {"srun", "--overlap", "-N" + count, "-n" + count, "--ntasks-per-node=1", "-w", nodes, "true"},
      60);
  if (r.code != 0) return Status::InvalidInput("srun: " + SlurmMessage(r.err));
  return Status::Ok();
}

Result<std::string> SlurmTrackerAddress(const SlurmAllocation& a) {
  CommandResult node = RunCommand({"scontrol", "show", "node", "-o", a.nodes.front()}, 30);
  if (node.code != 0) return Status::InvalidInput("scontrol show node: " + SlurmMessage(node.err));
  std::string addr = Field(node.out, "NodeAddr");
  if (addr.empty()) addr = a.nodes.front();
  return RouteAddressTo({addr, 9});
}

Result<std::vector<Task>> SlurmTasks(const SubmitOptions& o, const EnvList& env,
                                     const SlurmAllocation& a) {
  const std::vector<std::string> where = RankNodes(a, o.num_workers);
  std::vector<Task> tasks;
  for (int i = 0; i < o.num_workers; ++i) {
    Task t;
    t.label = "[rank " + std::to_string(i) + "] ";
    // --overlap: a restart's step may start while the killed one's resources are released;
    // --ntasks-per-node=1 overrides what an sbatch --ntasks-per-node exported for the job.
    t.argv = {"srun",
              "--overlap",
              "-N1",
              "-n1",
              "--ntasks-per-node=1",
              "-w",
              where[i],
              "--kill-on-bad-exit=1",
              "--job-name=treering-rank" + std::to_string(i)};
    t.argv.insert(t.argv.end(), o.command.begin(), o.command.end());
    t.env = env;
    t.env.emplace_back("DMLC_TASK_ID", std::to_string(i));
    t.env.emplace_back("DMLC_NODE_HOST", where[i]);
    t.max_restarts = o.local_num_attempt;
    t.append_attempt = true;
    t.parent_death_signal = SIGTERM;  // srun then cancels its step
    t.where = " on node " + where[i];
    tasks.push_back(std::move(t));
  }
  return tasks;
}

}  // namespace treering::launch
