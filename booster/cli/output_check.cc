#include "output_check.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "model_output.h"
#include "rabit/rabit.h"

namespace treering::cli {
namespace {

namespace fs = std::filesystem;

// Creates and removes a hidden temporary in `dir`: the only sure test that a later atomic
// write (a temporary renamed into place) can create its file there.
Status ProbeDirectory(const fs::path& dir, const std::string& where) {
  std::error_code ec;
  const fs::file_status st = fs::status(dir, ec);
  if (!fs::exists(st))
    return Status::InvalidInput(where + "directory " + dir.string() + " does not exist");
  if (!fs::is_directory(st)) {
    return Status::InvalidInput(where + dir.string() + " is not a directory");
  }
  std::string name = (dir / ".treering-write-check.XXXXXX").string();
  const int fd = ::mkstemp(name.data());
  if (fd < 0) {  // permissions, a read-only or full file system: not the config's fault
    return Status::IoError(where + "cannot create a file in " + dir.string() + ": " +
                           std::strerror(errno));
  }
  ::close(fd);
  ::unlink(name.c_str());
  return Status::Ok();
}

Status CheckTarget(const OutputTarget& t) {
  if (t.path.empty() || t.path == "stdout") return Status::Ok();
  const std::string where = t.key + " = " + t.path + ": ";
  std::error_code ec;
  if (t.directory) {
    if (Status s = PrepareModelDir(t.path); !s.ok()) return s;  // creates it, as XGBoost does
    return ProbeDirectory(t.path, where);
  }
  if (fs::is_directory(t.path, ec)) {
    return Status::InvalidInput(where + "is a directory, expected a file name");
  }
  const fs::path parent = fs::path(t.path).parent_path();
  return ProbeDirectory(parent.empty() ? fs::path(".") : parent, where);
}

Status CheckOnRank0(const std::vector<OutputTarget>& targets) {
  for (const OutputTarget& t : targets) {
    if (Status s = CheckTarget(t); !s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace

Status CheckOutputsWritable(const std::vector<OutputTarget>& targets) {
  Status verdict = rabit::GetRank() == 0 ? CheckOnRank0(targets) : Status::Ok();
  if (!rabit::IsDistributed()) return verdict;
  std::int32_t code = static_cast<std::int32_t>(verdict.code());
  std::string message = verdict.message();
  rabit::Broadcast(&code, sizeof(code), 0);
  rabit::Broadcast(&message, 0);
  return Status(static_cast<StatusCode>(code), message);
}

}  // namespace treering::cli
