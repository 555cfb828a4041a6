// Pieces the tasks share: loading data with user-facing error context, creating the configured
// learner with errors pointed at the config line, rank-0 file output and log lines, wall clocks.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "base/status.h"
#include "booster/learner.h"
#include "cli_options.h"
#include "data/dmatrix.h"

namespace treering::cli {

// `key` names the config key the URI came from ("data", "eval[test]") in errors. With
// shard = true each rank reads only its part of the rows. omit_dense_index, stream_dense:
// LoadOptions'.
Result<data::DMatrix> LoadMatrix(const std::string& key, const std::string& uri, const Context& ctx,
                                 bool shard, bool omit_dense_index = false,
                                 bool stream_dense = false);

// The learner options.booster names, from the learner keys; a value error is prefixed with the
// file:line of the key it names.
Result<std::unique_ptr<booster::Learner>> CreateLearnerFromConfig(const CliOptions& options);

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
