// treering-submit: dmlc-submit for treering. Starts the tracker in this process, launches the
// workers (local processes, one mpirun, or ssh per task), relays their output with rank
// prefixes, and exits non-zero when the job fails. With --serve-data it also runs `treering-data
// serve` as a child process for the job (data_serving.h).
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

#include <CLI/CLI.hpp>

#include "../src/launch/host_preparation.h"
#include "../src/launch/host_route.h"
#include "../src/launch/launch.h"
#include "../src/launch/supervisor.h"
#include "data_serving.h"
#include "shared_options.h"
#include "slurm_submit.h"
#include "tracker/server.h"
#include "tracker/status_url.h"

namespace {

using namespace treering;
using tracker::TrackerOptions;
using tracker::TrackerServer;

std::mutex g_out_mu;  // the tracker thread and the supervisor both write whole lines

void EmitLine(const std::string& line, bool to_stderr) {
  std::lock_guard<std::mutex> lock(g_out_mu);
  std::FILE* f = to_stderr ? stderr : stdout;
  std::fprintf(f, "%s\n", line.c_str());
  std::fflush(f);
}

void EmitToStderr(const std::string& line) { EmitLine(line, true); }

int ParseArgs(int argc, char** argv, launch::SubmitOptions& o, launch::ServeDataArgs& serve,
              launch::SlurmBatchOptions& slurm) {
  CLI::App app{"treering-submit: launch a distributed treering / XGBoost job"};
  std::vector<std::string> env;
  app.add_option("--cluster", o.cluster, "local, mpi, ssh or slurm")
      ->check(CLI::IsMember({"local", "mpi", "ssh", "slurm"}));
  app.add_option("--num-workers", o.num_workers,
                 "number of workers (slurm: by default the allocation's task count)")
      ->check(CLI::PositiveNumber);
  app.add_option("--host-file", o.host_file, "hosts for mpi / ssh: host[:port] [slots=n]");
  app.add_option("--local-num-attempt", o.local_num_attempt,
                 "restarts of a failed local worker (>= 1 turns on recovery in the tracker)")
      ->check(CLI::NonNegativeNumber);
  treering::tracker::AddHangReportOption(&app, &o);
  treering::tracker::AddElasticOptions(
      &app, &o,
      "elastic job: a worker lost for --elastic-timeout seconds is dropped and the "
      "others continue from the last round on fewer workers (sets TREERING_ELASTIC=1, "
      "the workers' rabit_elastic; docs/fault-tolerance.md)");
  app.add_option("--join", o.join,
                 "HOST:PORT of a running elastic job's tracker: start one worker here that "
                 "joins it at its next round (the job's token in TREERING_JOB_TOKEN)");
  app.add_option("--join-task-id", o.join_task_id,
                 "--join: the joining worker's task id (default join-HOSTNAME-PID)");
  app.add_option("--recovery-timeout", o.recovery_timeout_s,
                 "seconds every rank has to rejoin a recovery epoch (use the job's rabit_timeout)")
      ->check(CLI::PositiveNumber);
  auto* host_ip = app.add_option("--host-ip", o.host_ip,
                                 "tracker address (bind + advertise); ssh / mpi with a host "
                                 "file: by default the address that routes to the first host");
  app.add_option("--tracker-port", o.tracker_port,
                 "the tracker's port (default: any free one); fix it to open a firewall")
      ->check(CLI::Range(0, 65535));
  app.add_option("--log-level", o.log_level, "INFO or DEBUG")
      ->check(CLI::IsMember({"INFO", "DEBUG"}));
  app.add_option("--env", env, "K=V passed to every worker (repeatable)")
      ->allow_extra_args(false);  // one K=V per --env, so "--" still starts the command
  app.add_option("--bind-to", o.bind_to,
                 "local workers, as mpirun: core = pin each to an equal share of the CPUs when "
                 "2 <= workers <= CPUs (OpenMP then sizes its threads to the share); none = "
                 "leave placement to the OS")
      ->check(CLI::IsMember({"core", "none"}));
  app.add_flag("--legacy", o.legacy,
               "the workers speak the token-less dmlc/rabit dialect (on by itself when the "
               "command's program is named xgboost; see docs/launcher.md)");
  auto* ssh_command = app.add_option("--ssh-command", o.ssh_command,
                                     "ssh program and options (mpi: also Open MPI's "
                                     "plm_rsh_agent)");
  app.add_option("--sync-dst-dir", o.sync_dst_dir,
                 "ssh: copy the working directory to DIR on every host before the start (tar "
                 "over ssh) and run the workers there");
  app.add_option("--host-timeout", o.host_timeout_s,
                 "ssh: seconds every host has to answer the pre-start check (or staging)")
      ->check(CLI::PositiveNumber);
  app.add_option("--grace", o.grace_s, "seconds between SIGTERM and SIGKILL on failure");
  app.add_option("--finish-timeout", o.finish_timeout_s,
                 "seconds workers may run on after every rank said shutdown");
  launch::AddServeDataOptions(app, &serve);
  launch::AddSlurmOptions(app, &slurm);
  app.add_option("command", o.command, "worker command and its arguments (after --)")->required();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  if (!o.join.empty()) return -1;  // RunJoiner checks the rest
  if (o.num_workers == 0 && o.cluster != "slurm") {
    std::fprintf(stderr, "--num-workers is required\nRun with --help for more information.\n");
    return 2;
  }
  o.host_ip_given = host_ip->count() > 0;
  o.ssh_command_given = ssh_command->count() > 0;
  for (const std::string& kv : env) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) {
      std::fprintf(stderr, "treering-submit: --env '%s' is not K=V\n", kv.c_str());
      return 2;
    }
    o.env.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  if (o.local_num_attempt > 0 && o.cluster == "mpi") {
    // mpirun ends the whole job when a rank dies and cannot start a replacement (that needs
    // ULFM, which Debian's Open MPI lacks).
    std::fprintf(stderr,
                 "treering-submit: --local-num-attempt needs --cluster local or ssh (%s cannot "
                 "restart a worker; see docs/launcher.md)\n",
                 o.cluster.c_str());
    return 2;
  }
  if (!o.sync_dst_dir.empty() && (o.cluster != "ssh" || o.sync_dst_dir.front() != '/')) {
    std::fprintf(stderr,
                 "treering-submit: --sync-dst-dir needs --cluster ssh and an absolute "
                 "path\n");
    return 2;
  }
  return -1;
}

// The tracker on its own thread, its result published once Wait() returns.
class TrackerThread {
 public:
  TrackerThread(TrackerServer& server, double finish_timeout_s)
      : server_(server), finish_timeout_(finish_timeout_s), thread_([this] {
          result_ = server_.Wait();
          done_at_ = std::chrono::steady_clock::now();
          done_.store(true, std::memory_order_release);
        }) {}

  // Polled by the supervisor: a reason once the tracker failed, or once workers keep running
  // longer than the finish timeout after every rank said Shutdown.
  std::optional<std::string> Failure() const {
    if (!done_.load(std::memory_order_acquire)) return {};
    if (!result_.ok()) return "tracker: " + result_.message();
    const std::chrono::duration<double> since = std::chrono::steady_clock::now() - done_at_;
    if (since.count() <= finish_timeout_) return {};
    return "workers still running " + std::to_string(finish_timeout_) +
           " s after every rank said shutdown";
  }
  // After the processes are gone the tracker should be done; a bounded wait, never a hang.
  Status Join() {
    for (int i = 0; i < 100 && !done_; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (!done_) server_.Abort("every worker exited, but not every rank said shutdown");
    thread_.join();
    return result_;
  }

 private:
  TrackerServer& server_;
  double finish_timeout_;
  std::atomic<bool> done_{false};
  Status result_;
  std::chrono::steady_clock::time_point done_at_;
  std::thread thread_;
};

void LogTasks(const std::vector<launch::Task>& tasks) {
  for (const launch::Task& t : tasks) {
    std::string line = "[submit] " + t.label + "runs:";
    // append(), not " " + ...: GCC 12 warns falsely (-Wrestrict) on the temporary.
    for (const std::string& a : t.argv) line.append(" ").append(launch::ShellQuote(a));
    EmitLine(line, true);
  }
}

Status RunWorkers(const launch::SubmitOptions& o, std::vector<launch::Task> tasks,
                  TrackerServer& server, const TrackerThread& tracker) {
  if (o.log_level == "DEBUG") LogTasks(tasks);
  launch::SupervisorHooks hooks;
  hooks.emit = EmitLine;
  hooks.external_failure = [&tracker] { return tracker.Failure(); };
  hooks.on_task_failed = [&server](const std::string& reason) { server.Abort(reason); };
  launch::Supervisor::InstallSignalHandlers();
  return launch::Supervisor(std::move(tasks), o.grace_s, hooks).Run();
}

}  // namespace

// --join HOST:PORT: one worker, here, that joins a running elastic job (docs/fault-tolerance.md,
// "Elastic jobs"); it proves the job's token like every worker.
int RunJoiner(const launch::SubmitOptions& o) {
  const auto colon = o.join.rfind(':');
  int port = 0;
  if (colon == std::string::npos || colon == 0 ||
      std::sscanf(o.join.c_str() + colon + 1, "%d", &port) != 1 || port <= 0 || port > 65535) {
    std::fprintf(stderr, "treering-submit: --join '%s' is not HOST:PORT\n", o.join.c_str());
    return 2;
  }
  const char* token = std::getenv(launch::kTokenVariable);
  if (token == nullptr || *token == '\0') {
    std::fprintf(stderr, "treering-submit: --join needs the job's token in %s\n",
                 launch::kTokenVariable);
    return 2;
  }
  char host[256] = "host";
  ::gethostname(host, sizeof host - 1);
  launch::Task t;
  t.label = "[join] ";
  t.argv = o.command;
  std::string where = o.join.substr(0, colon);
  if (where.size() > 2 && where.front() == '[' && where.back() == ']') {
    where = where.substr(1, where.size() - 2);
  }
  t.env = {{"DMLC_TRACKER_URI", where},
           {"DMLC_TRACKER_PORT", std::to_string(port)},
           {"DMLC_ROLE", "worker"},
           {"DMLC_TASK_ID", o.join_task_id.empty()
                                ? "join-" + std::string(host) + "-" + std::to_string(::getpid())
                                : o.join_task_id},
           {"TREERING_ELASTIC", "1"},
           {"TREERING_ELASTIC_JOIN", "1"}};
  if (o.host_ip_given) t.env.emplace_back("TREERING_HOST_IP", o.host_ip);
  t.env.insert(t.env.end(), o.env.begin(), o.env.end());
  t.parent_death_signal = SIGKILL;
  launch::SupervisorHooks hooks;
  hooks.emit = EmitLine;
  launch::Supervisor::InstallSignalHandlers();
  const Status run = launch::Supervisor({std::move(t)}, o.grace_s, hooks).Run();
  std::fprintf(stderr, "[submit] joined %s; %s\n", o.join.c_str(),
               run.ok() ? "worker succeeded" : ("worker failed: " + run.message()).c_str());
  return run.ok() ? 0 : 1;
}

// Without --host-ip, a job on other hosts gets the tracker on the address that routes to the
// first host (the interface that reaches the cluster), and says which one.
void ChooseTrackerAddress(launch::SubmitOptions& o) {
  if (o.host_ip_given || o.cluster == "local" || o.host_file.empty()) return;
  auto hosts = launch::ReadHostFile(o.host_file);
  if (!hosts.ok()) return;  // BuildTasks reports it
  const launch::Host& first = hosts->front();
  auto route = launch::RouteAddressTo(first);
  if (!route.ok()) {
    EmitLine("[submit] cannot find the address that reaches " + first.name + " (" +
                 route.status().message() + "): the tracker stays on " + o.host_ip +
                 "; give --host-ip",
             true);
    return;
  }
  o.host_ip = route.value();
  EmitLine("[submit] tracker address " + o.host_ip + ": the route to " + first.name +
               " (give --host-ip to choose another)",
           true);
}

int main(int argc, char** argv) {
  launch::SubmitOptions o;
  launch::ServeDataArgs serve_data;
  launch::SlurmBatchOptions slurm_batch;
  if (int rc = ParseArgs(argc, argv, o, serve_data, slurm_batch); rc >= 0) return rc;
  launch::SlurmAllocation allocation;  // --cluster slurm: srun steps on its nodes
  if (o.cluster == "slurm") {
    if (int rc = launch::PrepareSlurmJob(o, slurm_batch, argc, argv, EmitLine, &allocation);
        rc >= 0) {
      return rc;
    }
  }
  if (!o.join.empty()) return RunJoiner(o);
  const auto started = std::chrono::steady_clock::now();
  ChooseTrackerAddress(o);
  if (o.cluster == "ssh" && !o.host_file.empty() && !o.command.empty()) {
    // Ctrl-C here ends treering-submit at once; the probes die with it (parent-death signal).
    if (Status s = launch::PrepareHosts(o, [](const std::string& l) { EmitLine(l, true); });
        !s.ok()) {
      std::fprintf(stderr, "[submit] job failed before the start: %s\n", s.message().c_str());
      return 1;
    }
  }
  // Before the tracker and any worker: a data server that cannot start fails the job with one
  // line, its reason.
  auto data_server = launch::StartJobDataServer(serve_data, o.host_ip, o.log_level == "DEBUG",
                                                EmitToStderr, &o.env);
  if (!data_server.ok()) {
    std::fprintf(stderr, "treering-submit: %s\n", data_server.status().message().c_str());
    return ExitCodeFor(data_server.status());
  }
  TrackerOptions t;
  t.num_workers = o.num_workers;
  t.host_ip = o.host_ip;
  t.port = static_cast<std::uint16_t>(o.tracker_port);
  t.token = launch::RandomToken();
  // Restarted local workers rejoin their rank through a recovery epoch (docs/fault-tolerance.md).
  t.max_attempts = static_cast<std::uint32_t>(o.local_num_attempt) + 1;
  t.recovery_timeout_s = o.recovery_timeout_s;
  t.elastic = o.elastic;
  t.elastic_timeout_s = o.elastic_timeout_s;
  t.min_workers = o.min_workers;
  t.hang_report_s = o.hang_report_s;
  t.progress_line = ::isatty(STDERR_FILENO) != 0;
  t.print = [](const std::string& m) { EmitLine(m, false); };
  t.legacy = o.legacy || launch::IsLegacyWorker(o.command);
  if (t.legacy && !o.legacy) {
    EmitLine("[submit] the command is XGBoost's CLI: accepting dmlc/rabit (legacy) workers", true);
  }
  TrackerServer server(t);
  if (Status s = server.Start(); !s.ok()) {
    std::fprintf(stderr, "treering-submit: %s\n", s.message().c_str());
    return ExitCodeFor(s);
  }
  for (const std::string& line : tracker::StatusLinesHere(o.host_ip, server.port(), t.token)) {
    EmitLine("[submit] " + line, true);
  }
  TrackerThread tracker(server, o.finish_timeout_s);
  const launch::EnvList job_env = launch::JobEnv(o, server.port(), t.token);
  auto tasks = o.cluster == "slurm" ? launch::SlurmTasks(o, job_env, allocation)
                                    : launch::BuildTasks(o, job_env);
  const Status run =
      tasks.ok() ? RunWorkers(o, std::move(tasks.value()), server, tracker) : tasks.status();
  if (!run.ok()) server.Abort(run.message());
  const Status tracker_result = tracker.Join();
  // Every worker is gone: stop the data server before the summary line (also on failure and
  // after SIGINT/SIGTERM, which end RunWorkers with "interrupted").
  if (*data_server) (*data_server)->Stop();
  // The tracker saw the first failure (a dead rank) before its peers exited on Abort, so its
  // reason names the root cause; when the supervisor failed first, it holds that reason too.
  const Status result = !tracker_result.ok() ? tracker_result : run;
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const std::string outcome = result.ok() ? "succeeded" : "failed: " + result.message();
  std::fprintf(stderr, "[submit] tracker %s:%u; job %s; wall time %.3f s\n", o.host_ip.c_str(),
               static_cast<unsigned>(server.port()), outcome.c_str(), wall);
  if (!tasks.ok()) return ExitCodeFor(tasks.status());
  return result.ok() ? 0 : 1;
}
