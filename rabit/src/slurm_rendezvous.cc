// The Slurm rendezvous (slurm_rendezvous.h): which processes use it, where task 0's tracker
// listens, and the rendezvous file that carries its address and the job token to the others.
#include "slurm_rendezvous.h"

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>

#include "host_route.h"
#include "launch.h"
#include "tracker/server.h"

namespace rabit::engine {
namespace {

using treering::Result;
using treering::Status;
using Clock = std::chrono::steady_clock;

constexpr char kMagic[] = "treering-slurm-rendezvous 1";

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

struct SlurmStep {
  unsigned long long job = 0, step = 0;
  std::string restart;  // SLURM_RESTART_COUNT: 0 for a job never requeued
  int procid = 0, ntasks = 0;
};

std::optional<unsigned long long> Number(const std::string& s) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 18) {
    return std::nullopt;
  }
  return std::stoull(s);
}

// A task of an srun step. The batch script itself has SLURM_PROCID and SLURM_NTASKS too (of the
// job) but no SLURM_STEP_ID: a program run there directly is a world of one, not task 0.
std::optional<SlurmStep> ThisStep() {
  const auto job = Number(Env("SLURM_JOB_ID")), step = Number(Env("SLURM_STEP_ID"));
  const auto procid = Number(Env("SLURM_PROCID")), ntasks = Number(Env("SLURM_NTASKS"));
  if (!job || !step || !procid || !ntasks || *ntasks < 2 || *procid >= *ntasks) return {};
  SlurmStep s;
  s.job = *job;
  s.step = *step;
  s.procid = static_cast<int>(*procid);
  s.ntasks = static_cast<int>(*ntasks);
  s.restart = Number(Env("SLURM_RESTART_COUNT")) ? Env("SLURM_RESTART_COUNT") : "0";
  return s;
}

// Below Linux's ephemeral range (32768-60999), so a port the kernel handed to some connection
// rarely sits on it; consecutive steps of a job get different ports. When it is taken anyway,
// task 0 takes any free port: the file carries the port it got.
std::uint16_t DerivedPort(const SlurmStep& s) {
  return static_cast<std::uint16_t>(20000 + (s.job * 97 + s.step) % 12000);
}

std::string RendezvousDir() {
  if (std::string dir = Env("TREERING_RENDEZVOUS_DIR"); !dir.empty()) return dir;
  std::string home = Env("HOME");
  if (home.empty()) {
    if (const passwd* pw = ::getpwuid(::geteuid()); pw != nullptr && pw->pw_dir) home = pw->pw_dir;
  }
  return home + "/.treering/slurm";
}

std::string FileName(const SlurmStep& s) {
  return RendezvousDir() + "/job" + std::to_string(s.job) + "." + std::to_string(s.step) + ".r" +
         s.restart;
}

Status MakePrivateDirs(const std::string& dir) {
  for (std::size_t at = 1; at <= dir.size(); ++at) {
    if (at < dir.size() && dir[at] != '/') continue;
    const std::string part = dir.substr(0, at);
    if (::mkdir(part.c_str(), 0700) != 0 && errno != EEXIST) {
      return Status::IoError("Slurm rendezvous: cannot create " + part + ": " +
                             std::strerror(errno));
    }
  }
  return Status::Ok();
}

Status WriteRendezvous(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return Status::IoError("Slurm rendezvous: " + tmp + ": " + std::strerror(errno));
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  if (!written || ::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    return Status::IoError("Slurm rendezvous: cannot write " + path + ": " + why);
  }
  return Status::Ok();
}

struct Rendezvous {
  std::string host;
  std::uint16_t port = 0;
  std::string token;
};

// nullopt while the file is not there yet; an error for a file this user must not trust.
Result<std::optional<Rendezvous>> TryRead(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::optional<Rendezvous>{};
    return Status::IoError("Slurm rendezvous: " + path + ": " + std::strerror(errno));
  }
  struct stat st {};
  std::string text(512, '\0');
  const bool stat_ok = ::fstat(fd, &st) == 0;
  const ssize_t n = ::read(fd, text.data(), text.size());
  ::close(fd);
  if (!stat_ok || st.st_uid != ::geteuid() || (st.st_mode & 077) != 0) {
    return Status::InvalidInput("Slurm rendezvous: " + path +
                                " is not this user's private file (owner and mode 0600 "
                                "expected): refusing it");
  }
  text.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  std::istringstream in(text);
  std::string magic;
  Rendezvous r;
  unsigned port = 0;
  if (!std::getline(in, magic) || magic != kMagic || !(in >> r.host >> port >> r.token) ||
      port == 0 || port > 65535) {
    return Status::InvalidInput("Slurm rendezvous: " + path + ": not a rendezvous file");
  }
  r.port = static_cast<std::uint16_t>(port);
  return std::optional<Rendezvous>{r};
}

Result<Rendezvous> AwaitRendezvous(const std::string& path, const SlurmStep& s, double timeout_s) {
  const auto deadline = Clock::now() + std::chrono::duration<double>(timeout_s);
  for (;;) {
    auto read = TryRead(path);
    if (!read.ok()) return read.status();
    if (read->has_value()) return **read;
    if (Clock::now() >= deadline) {
      return Status::IoError("Slurm rendezvous: task 0 of step " + std::to_string(s.job) + "." +
                             std::to_string(s.step) + " wrote no " + path + " within " +
                             std::to_string(static_cast<int>(timeout_s)) +
                             " s (did it start? does every node see that directory? "
                             "TREERING_RENDEZVOUS_DIR names another)");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// The address the other nodes reach task 0 at: the one this node uses toward the node srun ran
// on (the cluster's network, not a management interface), else toward its own host name.
Result<std::string> TrackerAddress() {
  const std::string launch_node = Env("SLURM_LAUNCH_NODE_IPADDR");
  if (!launch_node.empty()) {
    auto route = treering::launch::RouteAddressTo({launch_node, 9});
    if (route.ok()) return route;
  }
  char name[256] = {};
  if (::gethostname(name, sizeof(name) - 1) != 0) return Status::IoError("gethostname failed");
  return treering::launch::RouteAddressTo({name, 9});
}

// Task 0's tracker: serves on its own thread from JoinSlurmRendezvous until
// FinishSlurmRendezvous (or the process's end: the destructor stops it, so a task 0 that fails
// leaves no thread and no file).
struct TaskZeroTracker {
  std::unique_ptr<treering::tracker::TrackerServer> server;
  std::thread thread;
  std::atomic<bool> done{false};
  Status result;
  std::string file;

  ~TaskZeroTracker() {
    if (thread.joinable()) {
      server->Stop();
      thread.join();
    }
    if (!file.empty()) ::unlink(file.c_str());
  }
};

std::unique_ptr<TaskZeroTracker>& TheTracker() {
  static std::unique_ptr<TaskZeroTracker> tracker;
  return tracker;
}

Result<Rendezvous> StartTracker(const EngineParams& p, const SlurmStep& s,
                                const std::string& file) {
  auto address = TrackerAddress();
  if (!address.ok()) return address.status().WithContext("Slurm rendezvous: tracker address");
  auto t = std::make_unique<TaskZeroTracker>();
  treering::tracker::TrackerOptions o;
  o.num_workers = s.ntasks;
  o.host_ip = address.value();
  o.port = DerivedPort(s);
  o.token = treering::launch::RandomToken();
  o.bootstrap_timeout_s = p.bootstrap_timeout_seconds;
  o.max_attempts = p.max_attempts;
  o.recovery_timeout_s = p.timeout_seconds;
  t->server = std::make_unique<treering::tracker::TrackerServer>(o);
  if (!t->server->Start().ok()) {  // the derived port is taken: any free one
    o.port = 0;
    t->server = std::make_unique<treering::tracker::TrackerServer>(o);
    if (Status st = t->server->Start(); !st.ok()) return st.WithContext("Slurm rendezvous");
  }
  Rendezvous r{o.host_ip, t->server->port(), o.token};
  if (Status st = MakePrivateDirs(RendezvousDir()); !st.ok()) return st;
  std::ostringstream text;
  text << kMagic << "\n" << r.host << " " << r.port << "\n" << r.token << "\n";
  if (Status st = WriteRendezvous(file, text.str()); !st.ok()) return st;
  t->file = file;
  TaskZeroTracker* raw = t.get();
  t->thread = std::thread([raw] {
    raw->result = raw->server->Wait();
    raw->done.store(true, std::memory_order_release);
  });
  TheTracker() = std::move(t);
  return r;
}

}  // namespace

Status JoinSlurmRendezvous(EngineParams* p) {
  if (!p->tracker_uri.empty() || p->mpi_environment || p->engine == EngineChoice::kSingle ||
      p->engine == EngineChoice::kMpi || Env("TREERING_SLURM_RENDEZVOUS") == "0") {
    return Status::Ok();
  }
  const auto step = ThisStep();
  if (!step) return Status::Ok();
  const std::string file = FileName(*step);
  auto r = step->procid == 0 ? StartTracker(*p, *step, file)
                             : AwaitRendezvous(file, *step, p->bootstrap_timeout_seconds);
  if (!r.ok()) return r.status();
  p->tracker_uri = r->host;
  p->tracker_port = r->port;
  p->job_token = r->token;
  if (p->task_id.empty()) p->task_id = std::to_string(step->procid);
  if (p->world_size < 0) p->world_size = step->ntasks;
  return Status::Ok();
}

Status FinishSlurmRendezvous() {
  std::unique_ptr<TaskZeroTracker> t = std::move(TheTracker());
  if (!t) return Status::Ok();
  // The other ranks say Shutdown about when this one did; a minute covers a slow one's last
  // writes, and a job that ends with a rank missing fails rather than hangs.
  const auto deadline = Clock::now() + std::chrono::seconds(60);
  while (!t->done.load(std::memory_order_acquire) && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!t->done.load(std::memory_order_acquire)) {
    t->server->Abort("not every rank said shutdown within 60 s of rank 0");
  }
  t->thread.join();
  const Status result = t->result;
  t.reset();  // removes the file
  return result;
}

}  // namespace rabit::engine
