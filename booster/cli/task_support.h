// Pieces the tasks share: loading data and models with user-facing error context, creating
// the learner with errors pointed at the config line, rank-0 file output, wall clocks.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "booster/learner.h"
#include "booster/tree_model.h"
#include "cli_options.h"
#include "data/dmatrix.h"
#include "base/status.h"

namespace treering::cli {

// `key` names the config key the URI came from ("data", "eval[test]") in errors. With
// shard = true each rank reads only its part of the rows.
Result<data::DMatrix> LoadMatrix(const std::string& key, const std::string& uri, int nthread,
                                 bool shard);

// model_in, with a hint when the file is XGBoost's legacy binary format.
Result<booster::GBTreeModel> LoadModelIn(const std::string& path);

// Learner::Create with the learner keys; a value error is prefixed with the file:line of the
// key it names.
Result<std::unique_ptr<booster::Learner>> CreateLearner(const CliOptions& options);

// Atomic write by rank 0 only (other ranks do nothing); "stdout" prints instead.
Status WriteOutputRank0(const std::string& path, const std::string& contents);

// One line on stderr from rank 0 when verbosity >= level.
void LogRank0(const CliOptions& options, int level, const std::string& line);

class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  double Seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace treering::cli
