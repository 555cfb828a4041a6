// treering-submit's pieces: options, the worker environment, host files, and the tasks each
// cluster type runs. The Supervisor (supervisor.h) runs the tasks; the tracker runs beside it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"

namespace treering::launch {

using EnvList = std::vector<std::pair<std::string, std::string>>;

struct SubmitOptions {
  std::string cluster = "local";  // local | mpi | ssh
  int num_workers = 0;
  std::string host_file;
  int local_num_attempt = 0;       // how many times a failed local worker is restarted
  double recovery_timeout_s = 60;  // a recovery epoch must complete within this
  double hang_report_s = 30;       // rabit_hang_report: the tracker's hang lines (docs/status.md)
  // Elastic job (docs/fault-tolerance.md, "Elastic jobs"): a worker lost for longer than
  // elastic_timeout_s is dropped and the others go on in a smaller world, down to min_workers.
  bool elastic = false;
  double elastic_timeout_s = 10;
  int min_workers = 1;
  // --join HOST:PORT: start one worker here that joins the running elastic job at that
  // tracker (the job's token in TREERING_JOB_TOKEN); no tracker of its own.
  std::string join;
  std::string join_task_id;
  std::string host_ip = "127.0.0.1";
  bool host_ip_given = false;
  int tracker_port = 0;  // 0: any free port; fixed so a firewall can open it  // false: ssh / mpi
                         // with a host file pick the route to the hosts
  std::string log_level = "INFO";
  EnvList env;  // --env K=V, passed to every worker
  std::string ssh_command = "ssh -o StrictHostKeyChecking=no";
  std::vector<std::string> command;
  double grace_s = 5;              // SIGTERM -> SIGKILL delay when the job fails
  double finish_timeout_s = 300;   // workers may run on this long after the job succeeded
  std::string bind_to = "core";    // local workers: core (pinned to CPU shares) | none
  bool legacy = false;             // let the tracker speak the token-less dmlc/rabit dialect
  bool ssh_command_given = false;  // mpi: also start Open MPI's daemons with --ssh-command
  // ssh: copy the working directory to this directory on every host before the start (as
  // dmlc-submit's --sync-dst-dir); the workers then run there. Empty: run in the current
  // directory, which every host must have (checked before the start).
  std::string sync_dst_dir;
  double host_timeout_s = 60;  // ssh: each host's pre-start check (or staging) must end by then
};

struct Host {
  std::string name;
  int port = 22;
};

// One process the supervisor runs (and may restart): argv for attempt k, extra environment.
struct Task {
  std::string label;  // output prefix, "[rank 3] "; "" for none
  std::vector<std::string> argv;
  EnvList env;
  int max_restarts = 0;
  bool append_attempt = false;  // dmlc compat: restarts get argv "DMLC_NUM_ATTEMPT=k"
  std::vector<int> cpus;        // CPUs the process is pinned to (every attempt); empty = any
  // Written to the process's stdin, which is then closed (ssh hands the job token to the remote
  // shell this way, off every command line); empty: stdin is inherited.
  std::string stdin_data;
  // Sent to the process when treering-submit dies, even by SIGKILL (0: none).
  int parent_death_signal = 0;
  // After stdin_data the pipe stays open for the process's life (ssh: the remote side stops
  // its worker when it sees end of file, so a lost launcher or session leaves no worker).
  bool keep_stdin_open = false;
  // Set: the argv of attempt k (ssh puts DMLC_NUM_ATTEMPT=k into the remote script); unset:
  // `argv`, plus "DMLC_NUM_ATTEMPT=k" when append_attempt.
  std::function<std::vector<std::string>(int attempt)> argv_for_attempt;
  std::string where;  // appended to failure messages: " on host node-b"
  // Elastic job: a failed exit (after its restarts) does not end the job; the tracker decides
  // (it drops the rank, or fails the job below min_workers).
  bool elastic = false;
};

// `host[:port] [slots=n]` per line, '#' comments; a host with slots=n appears n times in a row.
Result<std::vector<Host>> ParseHostFile(const std::string& text);
Result<std::vector<Host>> ReadHostFile(const std::string& path);

std::string RandomToken();
// The environment variable holding the job token. It never appears on a command line: local
// workers inherit it, mpirun exports it with `-x NAME`, ssh reads it from stdin.
inline constexpr char kTokenVariable[] = "TREERING_JOB_TOKEN";
// The bearer token of the `--serve-data` HTTP server (docs/data.md), as secret as the job token.
inline constexpr char kDataTokenVariable[] = "TREERING_DATA_TOKEN";
// True when the worker command is a dmlc/rabit (legacy dialect) worker: its program's basename
// is `xgboost`, XGBoost's own CLI. Anything else needs --legacy (docs/launcher.md).
bool IsLegacyWorker(const std::vector<std::string>& command);
// The dmlc environment every worker gets (DMLC_TRACKER_URI/PORT, DMLC_NUM_WORKER, DMLC_ROLE,
// TREERING_JOB_TOKEN, DMLC_JOB_CLUSTER) followed by the user's --env pairs.
EnvList JobEnv(const SubmitOptions& o, std::uint16_t tracker_port, const std::string& token);
std::string ShellQuote(const std::string& s);

// The processes for each cluster type (argv already complete).
Result<std::vector<Task>> BuildTasks(const SubmitOptions& o, const EnvList& job_env);
// ssh: one task per worker (ssh_tasks.cc).
Result<std::vector<Task>> SshTasks(const SubmitOptions& o, const EnvList& env);
// Splits --ssh-command on spaces.
std::vector<std::string> SplitWords(const std::string& s);
std::string CurrentDir();

}  // namespace treering::launch
