#include "task_support.h"

#include <cctype>
#include <cstdio>

#include "booster/atomic_file.h"
#include "data/load.h"
#include "learner_factory.h"
#include "rabit/rabit.h"

namespace treering::cli {

Result<data::DMatrix> LoadMatrix(const std::string& key, const std::string& uri, int nthread,
                                 bool shard) {
  data::LoadOptions options;
  options.nthread = nthread;
  if (shard) {
    options.part = rabit::GetRank();
    options.nparts = rabit::GetWorldSize();
  }
  auto matrix = data::Load(uri, options);
  if (!matrix.ok()) return matrix.status().WithContext("cannot load " + key + " = " + uri);
  return matrix;
}

namespace {

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Position of `key` as a whole word in `text`, or npos.
std::size_t FindWord(const std::string& text, const std::string& key) {
  for (auto pos = text.find(key); pos != std::string::npos; pos = text.find(key, pos + 1)) {
    const bool starts = pos == 0 || !IsWordChar(text[pos - 1]);
    const bool ends = pos + key.size() == text.size() || !IsWordChar(text[pos + key.size()]);
    if (starts && ends) return pos;
  }
  return std::string::npos;
}

}  // namespace

Result<std::unique_ptr<booster::Learner>> CreateLearnerFromConfig(const CliOptions& options) {
  auto learner = CreateLearner(options.booster, options.learner_params, options.nthread,
                               &rabit::DefaultComm());
  if (learner.ok()) return learner;
  const Status& st = learner.status();
  // The learner names the key ("parameter eta: ..."); point at the config line that set it
  // last. With several keys in the message, the first one named is the culprit.
  std::string origin = "config";
  std::size_t first = std::string::npos;
  for (const auto& [key, where] : options.learner_origins) {
    const std::size_t pos = FindWord(st.message(), key);
    if (pos < first) {
      first = pos;
      origin = where;
    }
  }
  return Status(st.code(), origin + ": " + st.message());
}

Status WriteOutputRank0(const std::string& path, const std::string& contents) {
  if (rabit::GetRank() != 0) return Status::Ok();
  if (path == "stdout") {
    std::fwrite(contents.data(), 1, contents.size(), stdout);
    std::fflush(stdout);
    return Status::Ok();
  }
  return booster::WriteFileAtomic(path, contents);
}

void LogRank0(const CliOptions& options, int level, const std::string& line) {
  if (options.verbosity < level || rabit::GetRank() != 0) return;
  std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
}

}  // namespace treering::cli
