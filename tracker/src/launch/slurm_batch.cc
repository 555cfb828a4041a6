// --cluster slurm outside an allocation: `sbatch --wait`, the job script on sbatch's stdin (it
// runs this treering-submit again, inside the allocation), the job's output files relayed line by
// line while sbatch waits, and the job's exit status as ours. Ctrl-C / SIGTERM cancel the job
// (scancel) and the wait goes on until Slurm ended it.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

#include "child_process.h"
#include "line_buffer.h"
#include "slurm.h"

namespace treering::launch {
namespace {

std::atomic<bool> g_interrupted{false};
void OnSignal(int) { g_interrupted.store(true); }

// A job's output file followed as it grows (the job writes it on its node; a shared directory
// brings it here). The job appends (--open-mode=append), so a requeued run continues it.
class FollowedFile {
 public:
  FollowedFile(std::string path, bool to_stderr) : path_(std::move(path)), to_stderr_(to_stderr) {}
  ~FollowedFile() {
    if (fd_ >= 0) ::close(fd_);
    ::unlink(path_.c_str());
  }
  template <typename Emit>
  void Poll(Emit emit) {
    if (fd_ < 0) fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) return;
    char buf[8192];
    for (ssize_t n; (n = ::read(fd_, buf, sizeof(buf))) > 0;) {
      lines_.Feed(buf, static_cast<std::size_t>(n),
                  [&](const std::string& l) { emit(l, to_stderr_); });
    }
  }
  template <typename Emit>
  void Finish(Emit emit) {
    Poll(emit);
    lines_.Flush([&](const std::string& l) { emit(l, to_stderr_); });
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  bool to_stderr_;
  int fd_ = -1;
  LineBuffer lines_;
};

std::vector<std::string> SbatchArgv(const SubmitOptions& o, const SlurmBatchOptions& b,
                                    const std::string& out, const std::string& err) {
  std::vector<std::string> argv = {
      "sbatch",          "--wait",        "--parsable", "--job-name=treering", "--open-mode=append",
      "--output=" + out, "--error=" + err};
  if (b.nodes > 0) argv.push_back("--nodes=" + std::to_string(b.nodes));
  if (b.ntasks_per_node > 0)
    argv.push_back("--ntasks-per-node=" + std::to_string(b.ntasks_per_node));
  if (o.num_workers > 0) argv.push_back("--ntasks=" + std::to_string(o.num_workers));
  if (!b.time.empty()) argv.push_back("--time=" + b.time);
  if (!b.partition.empty()) argv.push_back("--partition=" + b.partition);
  if (!b.account.empty()) argv.push_back("--account=" + b.account);
  argv.insert(argv.end(), b.extra.begin(), b.extra.end());
  return argv;
}

std::string JobScript(const std::vector<std::string>& self_argv) {
  std::string script = "#!/bin/sh\n# treering-submit --cluster slurm, inside the allocation\nexec";
  for (const std::string& a : self_argv) script.append(" ").append(ShellQuote(a));
  return script + "\n";
}

void Drain(int fd, std::string* into) {
  char buf[4096];
  for (ssize_t n; (n = ::read(fd, buf, sizeof(buf))) > 0;) into->append(buf, n);
}

}  // namespace

int SubmitSlurmBatch(const SubmitOptions& o, const SlurmBatchOptions& b,
                     const std::vector<std::string>& self_argv,
                     const std::function<void(const std::string&, bool)>& emit) {
  const std::string base = CurrentDir() + "/.treering-slurm-" + std::to_string(::getpid()) + "-" +
                           RandomToken().substr(0, 8);
  FollowedFile out(base + ".out", false), err(base + ".err", true);
  const std::vector<std::string> argv = SbatchArgv(o, b, out.path(), err.path());
  ChildSetup setup;
  setup.stdin_data = JobScript(self_argv);
  auto sbatch = SpawnChild(argv, {}, setup);
  if (!sbatch.ok()) {
    std::fprintf(stderr, "treering-submit: sbatch: %s\n", sbatch.status().message().c_str());
    return 2;
  }
  struct sigaction sa {};
  sa.sa_handler = OnSignal;
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
  std::string sbatch_out, sbatch_err, job_id;
  bool cancelled = false;
  int status = 0;
  for (;;) {
    Drain(sbatch->out_fd, &sbatch_out);
    Drain(sbatch->err_fd, &sbatch_err);
    if (job_id.empty() && sbatch_out.find('\n') != std::string::npos) {
      job_id = sbatch_out.substr(0, sbatch_out.find_first_of(";\n"));
      emit("[submit] slurm job " + job_id + " submitted", true);
    }
    out.Poll(emit);
    err.Poll(emit);
    if (::waitpid(sbatch->pid, &status, WNOHANG) == sbatch->pid) break;
    if (g_interrupted.load() && !cancelled && !job_id.empty()) {
      cancelled = true;
      emit("[submit] interrupted: scancel " + job_id, true);
      RunCommand({"scancel", job_id}, 30);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  Drain(sbatch->out_fd, &sbatch_out);
  Drain(sbatch->err_fd, &sbatch_err);
  for (int fd : {sbatch->out_fd, sbatch->err_fd, sbatch->exit_fd}) {
    if (fd >= 0) ::close(fd);
  }
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  if (job_id.empty() && sbatch_out.find_first_of("0123456789") == 0) {
    job_id = sbatch_out.substr(0, sbatch_out.find_first_of(";\n"));
  }
  if (job_id.empty()) {  // Slurm refused the job: nothing ran
    std::fprintf(stderr, "treering-submit: sbatch: %s\n", SlurmMessage(sbatch_err).c_str());
    return 2;
  }
  // A job cancelled as it started may still have its output files made by the node after
  // sbatch returned: give that a moment, so they are removed with the rest.
  if (cancelled) std::this_thread::sleep_for(std::chrono::seconds(1));
  out.Finish(emit);
  err.Finish(emit);
  emit("[submit] slurm job " + job_id + " ended with exit code " + std::to_string(code), true);
  return cancelled && code == 0 ? 1 : code;
}

}  // namespace treering::launch
