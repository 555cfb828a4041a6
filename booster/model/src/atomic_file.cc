#include "booster/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace treering::booster {
namespace {

Status Errno(const std::string& what, const std::string& path) {
  return Status::IoError("cannot " + what + " " + path + ": " + std::strerror(errno));
}

Status WriteAll(int fd, std::string_view bytes, const std::string& path) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Errno("write", path);
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return Status::Ok();
}

// Makes the rename itself durable; failure here is not fatal for correctness of the content.
void SyncDirectory(const std::filesystem::path& dir) {
  const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// The process umask, read without changing it (umask(2) can only set it, and a set-and-restore
// would race with threads creating files meanwhile). Linux has shown it in /proc since 4.7.
mode_t CurrentUmask() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("Umask:", 0) == 0)
      return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8));
  }
  const mode_t mask = ::umask(022);
  ::umask(mask);
  return mask;
}

// Writes and fsyncs `contents` into an open temporary file, then closes it.
Status FillTemp(int fd, std::string_view contents, const std::string& tmp) {
  Status st = WriteAll(fd, contents, tmp);
  if (st.ok() && ::fsync(fd) != 0) st = Errno("fsync", tmp);
  if (::close(fd) != 0 && st.ok()) st = Errno("close", tmp);
  return st;
}

}  // namespace

Status WriteFileAtomic(const std::string& path, std::string_view contents) {
  const std::filesystem::path target(path);
  const std::filesystem::path dir = target.parent_path();
  // The temporary lives next to the target so rename() never crosses file systems.
  // (Built with append: GCC 12 warns falsely (-Wrestrict) on `"." + std::string`.)
  std::string hidden(".");
  hidden.append(target.filename().string()).append(".tmp.XXXXXX");
  std::string tmp = (dir / hidden).string();
  std::vector<char> name(tmp.begin(), tmp.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) return Errno("create a temporary file for", path);
  tmp.assign(name.data());
  // mkstemp creates 0600; the saved file gets what open(O_CREAT, 0666) would have given it.
  ::fchmod(fd, 0666 & ~CurrentUmask());
  Status st = FillTemp(fd, contents, tmp);
  if (st.ok() && std::rename(tmp.c_str(), path.c_str()) != 0) st = Errno("rename into", path);
  if (!st.ok()) {
    ::unlink(tmp.c_str());
    return st;
  }
  SyncDirectory(dir);
  return Status::Ok();
}

Result<std::string> ReadWholeFile(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return Status::InvalidInput("no such file: " + path);
  if (std::filesystem::is_directory(path, ec)) {
    return Status::InvalidInput(path + " is a directory, not a file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::InvalidInput("cannot open " + path + ": " + std::strerror(errno));
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad()) return Status::IoError("error while reading " + path);
  return buf.str();
}

}  // namespace treering::booster
