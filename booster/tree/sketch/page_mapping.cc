#include "booster/tree/sketch/page_mapping.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace treering::booster {
namespace {

// The mapped page files the SIGBUS handler knows (a handler may read only plain memory).
constexpr int kMaxMapped = 16;
struct Mapped {
  std::atomic<std::uintptr_t> begin{0};
  std::atomic<std::uintptr_t> end{0};
  char message[512] = {};
  char path[256] = {};
};
Mapped g_mapped[kMaxMapped];
std::mutex g_mapped_mutex;
struct sigaction g_previous_bus;

void OnBusError(int sig, siginfo_t* info, void* context) {
  const auto addr = reinterpret_cast<std::uintptr_t>(info->si_addr);
  for (Mapped& m : g_mapped) {
    if (addr >= m.begin.load() && addr < m.end.load()) {
      // Several threads read the pages: only the first to fault reports and exits; the others
      // wait here for its _exit (one line, as every error).
      static std::atomic<bool> reported{false};
      if (reported.exchange(true)) {
        for (;;) ::pause();
      }
      const ssize_t ignored = ::write(STDERR_FILENO, m.message, std::strlen(m.message));
      (void)ignored;
      for (Mapped& other : g_mapped) {  // leave no cache behind (unlink is signal-safe)
        if (other.end.load() != 0) ::unlink(other.path);
      }
      ::_exit(2);
    }
  }
  sigaction(SIGBUS, &g_previous_bus, nullptr);  // not ours: the default (or earlier) action
  (void)context;
  ::raise(sig);
}

// The handler is installed only while a page is mapped, and the previous action is back when
// the last mapping goes: a library's host keeps its own SIGBUS handling otherwise.
int g_registered = 0;  // guarded by g_mapped_mutex

void Register(const void* data, std::size_t bytes, const std::string& path) {
  std::lock_guard<std::mutex> lock(g_mapped_mutex);
  if (g_registered++ == 0) {
    struct sigaction sa = {};
    sa.sa_sigaction = OnBusError;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, &g_previous_bus);
  }
  for (Mapped& m : g_mapped) {
    if (m.end.load() != 0) continue;
    std::snprintf(m.message, sizeof(m.message),
                  "treering: cache file %s was truncated or removed while training read it\n",
                  path.c_str());
    std::snprintf(m.path, sizeof(m.path), "%s", path.c_str());
    m.begin = reinterpret_cast<std::uintptr_t>(data);
    m.end = reinterpret_cast<std::uintptr_t>(data) + bytes;
    return;
  }
}

void Unregister(const void* data) {
  std::lock_guard<std::mutex> lock(g_mapped_mutex);
  for (Mapped& m : g_mapped) {
    if (m.begin.load() == reinterpret_cast<std::uintptr_t>(data)) {
      m.end = 0;
      m.begin = 0;
    }
  }
  if (g_registered > 0 && --g_registered == 0) sigaction(SIGBUS, &g_previous_bus, nullptr);
}

// Resident bytes of this process (/proc/self/statm, second field, in pages).
std::uint64_t ResidentBytes(int statm) {
  char buf[128];
  const ssize_t n = ::pread(statm, buf, sizeof(buf) - 1, 0);
  if (n <= 0) return 0;
  buf[n] = 0;
  unsigned long long size = 0, resident = 0;
  if (std::sscanf(buf, "%llu %llu", &size, &resident) != 2) return 0;
  return resident * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

}  // namespace

PageMapping::~PageMapping() {
  stop_ = true;
  if (keeper_.joinable()) keeper_.join();
  for (const Region& r : regions_) {
    Unregister(r.data);
    ::munmap(r.data, r.bytes);
  }
}

Status PageMapping::Map(int fd, const std::string& path, std::size_t bytes) {
  struct stat st = {};
  if (::fstat(fd, &st) != 0) {
    return Status::InvalidInput("cannot stat cache file " + path + ": " + std::strerror(errno));
  }
  if (static_cast<std::uint64_t>(st.st_size) != bytes) {
    return Status::InvalidInput("truncated cache file " + path + ": " + std::to_string(st.st_size) +
                                " bytes, expected " + std::to_string(bytes));
  }
  void* data = ::mmap(nullptr, bytes, PROT_READ, MAP_SHARED, fd, 0);
  if (data == MAP_FAILED) {
    return Status::InvalidInput("cannot map cache file " + path + ": " + std::strerror(errno));
  }
  // No fault-around: a fault maps its own page only, not 16 cached neighbours, so readers
  // make pages resident at a rate the keeper can follow.
  ::madvise(data, bytes, MADV_RANDOM);
  regions_.push_back({data, bytes});
  Register(data, bytes, path);
  return Status::Ok();
}

void PageMapping::TrimAll() {
  for (const Region& r : regions_) ::madvise(r.data, r.bytes, MADV_DONTNEED);
  trims_.fetch_add(1, std::memory_order_relaxed);
}

void PageMapping::KeepUnder(std::uint64_t cap) {
  if (cap == 0 || regions_.empty()) return;
  keeper_ = std::thread([this, cap] { Keep(cap); });
}

// Polls every 200 us and trims at cap - min(96 MiB, cap / 4): on higgs10m a 32 MiB margin let
// short bursts (a trim of 560 MB of mappings, a transient buffer) reach 54-89 MiB past the
// trigger; 96 MiB kept the peak under the cap (docs/data.md, "External memory").
void PageMapping::Keep(std::uint64_t cap) {
  const int statm = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (statm < 0) return;
  // Readers fault pages back in at GB/s, so a keeper that waits behind them for a time slice
  // lets the resident size run hundreds of MB past the cap (measured on a busy machine). A
  // real-time keeper runs the moment its poll is due; where that is not allowed (not root,
  // no CAP_SYS_NICE) it stays an ordinary thread and the cap is kept less tightly.
  sched_param realtime = {};
  realtime.sched_priority = 1;
  realtime_ = pthread_setschedparam(pthread_self(), SCHED_FIFO, &realtime) == 0;
  constexpr std::uint64_t kHeadroom = std::uint64_t{96} << 20;
  const std::uint64_t trigger = cap - std::min(kHeadroom, cap / 4);
  while (!stop_.load(std::memory_order_relaxed)) {
    if (ResidentBytes(statm) > trigger) TrimAll();
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  ::close(statm);
}

}  // namespace treering::booster
