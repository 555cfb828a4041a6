#include "task_support.h"

#include <unistd.h>

#include <cstdio>

#include "booster/atomic_file.h"
#include "booster/model_formats.h"
#include "data/load.h"
#include "learner_factory.h"
#include "load_progress.h"
#include "rabit/rabit.h"

namespace treering::cli {

Result<data::DMatrix> LoadMatrix(const std::string& key, const std::string& uri, const Context& ctx,
                                 bool shard, bool omit_dense_index, bool stream_dense) {
  data::LoadOptions options;
  options.omit_dense_index = omit_dense_index;
  options.stream_dense = stream_dense;
  if (shard) {
    options.part = rabit::GetRank();
    options.nparts = rabit::GetWorldSize();
  }
  // Rank 0 only: the other ranks' lines would fight for the same terminal.
  LoadProgressLine line(key + " = " + uri, rabit::GetRank() == 0 && ::isatty(STDERR_FILENO));
  line.Attach(&options);
  auto matrix = data::Load(uri, options, ctx);
  if (!matrix.ok()) return matrix.status().WithContext("cannot load " + key + " = " + uri);
  return matrix;
}

namespace {

// XGBoost's CLI takes the booster from model_in when the config names none: a gblinear model
// (whose bytes name it; other files are not parsed twice) selects the linear learner.
bool ModelInIsLinear(const CliOptions& options) {
  if (options.model_in.empty() || options.learner_origins.count("booster") != 0) return false;
  auto bytes = booster::ReadWholeFile(options.model_in);
  if (!bytes.ok() || bytes->find("gblinear") == std::string::npos) return false;
  auto model = booster::ParseModel(bytes.value(), options.model_in);
  return model.ok() && model->linear;
}

}  // namespace

Result<std::unique_ptr<booster::Learner>> CreateLearnerFromConfig(const CliOptions& options) {
  const std::string name = ModelInIsLinear(options) ? "gblinear" : options.booster;
  auto learner =
      CreateLearner(name, options.learner_params, options.context, &rabit::DefaultComm());
  if (learner.ok()) return learner;
  const Status& st = learner.status();
  // The learner names the key it rejects (Status::key()); point at the line that set it last.
  const auto where = options.learner_origins.find(st.key());
  const std::string origin = where != options.learner_origins.end() ? where->second : "config";
  return st.WithContext(origin);
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
  if (options.context.verbosity < level || rabit::GetRank() != 0) return;
  std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
}

}  // namespace treering::cli
