#include "data/external_columns.h"

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace treering::data {
namespace {

Status FileError(const std::string& what, const std::string& path, int err) {
  return Status::InvalidInput(what + " cache file " + path + ": " + std::strerror(err));
}

// Writes all of `bytes`; a short write (a full disk, RLIMIT_FSIZE) is an error.
Status WriteAll(int fd, const void* data, std::size_t bytes, const std::string& path) {
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::write(fd, p, bytes);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return FileError("cannot write", path, n < 0 ? errno : ENOSPC);
    p += n;
    bytes -= static_cast<std::size_t>(n);
  }
  return Status::Ok();
}

// The live caches, for the termination handler: it may only read plain memory and call
// async-signal-safe functions, so each entry holds its prefix and column count and the handler
// spells the file names itself.
constexpr int kMaxCaches = 8;
struct LiveCache {
  std::atomic<bool> live{false};
  char prefix[4096] = {};
  char dir[4096] = {};  // a temporary cache's directory (removed after its files), else ""
  std::uint32_t cols = 0;
  pid_t owner = 0;  // a forked child that exits or is signalled leaves its parent's files alone
};
LiveCache g_caches[kMaxCaches];
std::atomic<bool> g_handlers_installed{false};
struct sigaction g_previous[3];
constexpr int kSignals[3] = {SIGTERM, SIGINT, SIGHUP};

// Appends `text` to buf[*n] (bounded), for the handler.
void Put(char* buf, std::size_t* n, std::size_t cap, const char* text) {
  while (*text != 0 && *n + 1 < cap) buf[(*n)++] = *text++;
  buf[*n] = 0;
}

void UnlinkWithSuffix(const char* prefix, const char* suffix) {
  char path[4200];
  std::size_t n = 0;
  Put(path, &n, sizeof(path), prefix);
  Put(path, &n, sizeof(path), suffix);
  ::unlink(path);
}

// Unlinks every live cache's files (async-signal-safe: the termination handler calls it).
void UnlinkLiveCaches() {
  for (LiveCache& c : g_caches) {
    if (!c.live.load() || c.owner != ::getpid()) continue;
    for (std::uint32_t f = 0; f < c.cols; ++f) {
      char digits[16];
      int len = 0;
      std::uint32_t v = f;
      do {
        digits[len++] = static_cast<char>('0' + v % 10);
        v /= 10;
      } while (v != 0);
      char suffix[32] = ".col";
      std::size_t n = 4;
      while (len > 0) suffix[n++] = digits[--len];
      suffix[n] = 0;
      Put(suffix, &n, sizeof(suffix), ".spill");
      UnlinkWithSuffix(c.prefix, suffix);
    }
    UnlinkWithSuffix(c.prefix, ".rows.page");
    UnlinkWithSuffix(c.prefix, ".columns.page");
    if (c.dir[0] != 0) ::rmdir(c.dir);
  }
}

void OnTerminate(int sig) {
  UnlinkLiveCaches();
  for (int i = 0; i < 3; ++i) {
    if (kSignals[i] == sig) sigaction(sig, &g_previous[i], nullptr);
  }
  ::raise(sig);  // the earlier action (default: terminate) now runs
}

LiveCache* Track(const std::string& prefix, std::uint32_t cols, const std::string& dir) {
  // A cache whose owner is never destroyed (a leaked or global DMatrix, std::exit from a
  // library's host) still goes when the process exits normally.
  static const bool at_exit = std::atexit(UnlinkLiveCaches) == 0;
  (void)at_exit;
  if (prefix.size() >= sizeof(LiveCache::prefix) || dir.size() >= sizeof(LiveCache::dir)) {
    return nullptr;
  }
  for (LiveCache& c : g_caches) {
    bool expected = false;
    if (c.live.load() || c.cols != 0) continue;
    std::snprintf(c.prefix, sizeof(c.prefix), "%s", prefix.c_str());
    std::snprintf(c.dir, sizeof(c.dir), "%s", dir.c_str());
    c.cols = cols;
    c.owner = ::getpid();
    if (c.live.compare_exchange_strong(expected, true)) return &c;
  }
  return nullptr;  // more live caches than slots: not removed on a signal
}

}  // namespace

void RemoveCachesOnTermination() {
  if (g_handlers_installed.exchange(true)) return;
  struct sigaction sa = {};
  sa.sa_handler = OnTerminate;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &sa, &g_previous[i]);
}

Result<CacheUri> SplitCacheUri(const std::string& uri) {
  const std::size_t hash = uri.find('#');
  if (hash == std::string::npos) return CacheUri{uri, ""};
  CacheUri out{uri.substr(0, hash), uri.substr(hash + 1)};
  if (out.prefix.find('#') != std::string::npos) {
    return Status::InvalidInput(uri + ": only one '#' (the cache prefix) is allowed");
  }
  if (out.prefix.empty()) return Status::InvalidInput(uri + ": empty cache prefix after '#'");
  if (out.prefix.find(':') != std::string::npos) {
    return Status::InvalidInput(uri + ": several cache prefixes (':') are not supported");
  }
  return out;
}

std::string RankedCachePrefix(const std::string& prefix, int rank, int world) {
  if (world <= 1) return prefix;
  const std::string tag = ".r" + std::to_string(rank) + "-" + std::to_string(world);
  const std::size_t slash = prefix.rfind('/');
  const std::size_t dot = prefix.rfind('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) {
    return prefix + tag;
  }
  return prefix.substr(0, dot) + tag + prefix.substr(dot);
}

namespace {

// Blocks the termination signals while held: a temporary directory is made and registered
// for the handler with no signal in between (else it could outlive the process).
class SignalsHeld {
 public:
  SignalsHeld() {
    sigset_t set;
    sigemptyset(&set);
    for (int sig : kSignals) sigaddset(&set, sig);
    pthread_sigmask(SIG_BLOCK, &set, &old_);
  }
  ~SignalsHeld() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;

 private:
  sigset_t old_;
};

std::vector<std::string> ColumnFiles(const std::string& prefix, std::uint32_t cols) {
  std::vector<std::string> files;
  for (std::uint32_t f = 0; f < cols; ++f) {
    files.push_back(prefix + ".col" + std::to_string(f) + ".spill");
  }
  return files;
}

}  // namespace

ExternalColumns::ExternalColumns(std::string prefix, std::uint32_t cols)
    : prefix_(std::move(prefix)), cols_(cols), files_(ColumnFiles(prefix_, cols)) {}

std::shared_ptr<ExternalColumns> ExternalColumns::Temporary(std::uint32_t cols) {
  auto c = std::make_shared<ExternalColumns>("", cols);
  c->temporary_ = true;
  return c;
}

ExternalColumns::~ExternalColumns() {
  if (tracked_ != nullptr) {
    auto* c = static_cast<LiveCache*>(tracked_);
    c->live = false;
    c->cols = 0;
  }
  for (int fd : fds_) {
    if (fd >= 0) ::close(fd);
  }
  RemoveColumns();
  for (const std::string& path : adopted_) ::unlink(path.c_str());
  if (!dir_.empty()) ::rmdir(dir_.c_str());
}

void ExternalColumns::RemoveColumns() {
  for (const std::string& path : files_) ::unlink(path.c_str());
}

Status ExternalColumns::Create() {
  // A file over RLIMIT_FSIZE would kill the process with SIGXFSZ; ignored, the write fails
  // with EFBIG and the error names the file.
  std::signal(SIGXFSZ, SIG_IGN);
  // Known to the exit hook and, in a program that asked for it, to the termination handler.
  if (temporary_) {
    const char* env = std::getenv("TMPDIR");
    const std::string base = env != nullptr && env[0] != 0 ? env : "/tmp";
    std::string pattern = base + "/treering-stream-XXXXXX";
    SignalsHeld held;
    if (::mkdtemp(pattern.data()) == nullptr) {
      return Status::InvalidInput("cannot create a temporary directory under " + base +
                                  " ($TMPDIR, else /tmp): " + std::strerror(errno));
    }
    dir_ = pattern;
    prefix_ = dir_ + "/data";
    files_ = ColumnFiles(prefix_, cols_);
    tracked_ = Track(prefix_, cols_, dir_);
  } else {
    tracked_ = Track(prefix_, cols_, "");
  }
  for (const std::string& path : files_) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return FileError("cannot create", path, errno);
    fds_.push_back(fd);
  }
  return Status::Ok();
}

Status ExternalColumns::AppendRows(const float* values, std::uint64_t n) {
  transpose_.resize(n);
  for (std::uint32_t f = 0; f < cols_; ++f) {
    for (std::uint64_t r = 0; r < n; ++r) transpose_[r] = values[r * cols_ + f];
    if (Status s = WriteAll(fds_[f], transpose_.data(), n * sizeof(float), files_[f]); !s.ok()) {
      return s;
    }
  }
  rows_ += n;
  return Status::Ok();
}

Status ExternalColumns::Finish() {
  std::vector<float>().swap(transpose_);
  Status first = Status::Ok();
  for (std::size_t f = 0; f < fds_.size(); ++f) {
    if (::close(fds_[f]) != 0 && first.ok()) first = FileError("cannot write", files_[f], errno);
    fds_[f] = -1;
  }
  return first;
}

Status ExternalColumns::ReadColumn(std::uint32_t f, std::uint64_t first, std::uint64_t n,
                                   float* out) const {
  const std::string& path = files_[f];
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return FileError("cannot open", path, errno);
  char* p = reinterpret_cast<char*>(out);
  std::size_t left = n * sizeof(float);
  off_t at = static_cast<off_t>(first * sizeof(float));
  while (left > 0) {
    const ssize_t got = ::pread(fd, p, left, at);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      const int err = errno;
      ::close(fd);
      if (got < 0) return FileError("cannot read", path, err);
      return Status::InvalidInput("truncated cache file " + path + ": expected " +
                                  std::to_string(rows_ * sizeof(float)) + " bytes");
    }
    p += got;
    at += got;
    left -= static_cast<std::size_t>(got);
  }
  ::close(fd);
  return Status::Ok();
}

}  // namespace treering::data
