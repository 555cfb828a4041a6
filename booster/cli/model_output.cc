#include "model_output.h"

#include <cstdio>
#include <filesystem>
#include <system_error>

#include "booster/atomic_file.h"
#include "rabit/rabit.h"

namespace treering::cli {

Status PrepareModelDir(const std::string& model_dir) {
  if (rabit::GetRank() != 0) return Status::Ok();
  std::error_code ec;
  std::filesystem::create_directories(model_dir, ec);
  if (ec || !std::filesystem::is_directory(model_dir)) {
    return Status::InvalidInput("model_dir = " + model_dir + ": cannot create the directory" +
                                (ec ? ": " + ec.message() : ""));
  }
  return Status::Ok();
}

std::string SnapshotPath(const std::string& model_dir, int rounds, const std::string& suffix) {
  char name[32];
  std::snprintf(name, sizeof(name), "%04d.", rounds);
  return (std::filesystem::path(model_dir) / (name + suffix)).string();
}

Status SaveModelRank0(const booster::Learner& learner, const std::string& path) {
  if (rabit::GetRank() != 0) return Status::Ok();
  auto bytes = learner.SerializeModelFile(path);
  Status st = bytes.ok() ? booster::WriteFileAtomic(path, bytes.value())
                         : bytes.status().WithContext("cannot save model " + path);
  return st.ok() ? st : Status(st.code(), "cannot save the model: " + st.message());
}

}  // namespace treering::cli
