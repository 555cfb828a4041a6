// Outputs checked before the work: a task's output files (model_out, model_dir, name_pred,
// name_dump) are probed for writability before the first round, so a typo'd directory fails
// in seconds instead of throwing a finished run away. In a distributed job only rank 0 writes,
// so rank 0 probes and broadcasts its verdict: every rank fails at once with rank 0's message
// instead of waiting in the next collective until its deadline.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"

namespace treering::cli {

struct OutputTarget {
  std::string key;         // the config key, named in errors ("model_out")
  std::string path;        // "" (not written) and "stdout" are not checked
  bool directory = false;  // model_dir: created (PrepareModelDir) when absent, then probed
};

// A collective: every rank calls it with the same targets. Rank 0 checks that each file's
// directory exists and takes a new file (a temporary created and removed there; the final file
// is neither created nor truncated) and that no file path is a directory. On every rank when
// rank 0's check fails: kInvalidInput "KEY = PATH: why" for a path that cannot be right (no such
// directory, a file where a directory should be), kIoError when the directory exists but takes
// no new file (permissions, read-only or full file system), as data/ sorts its errors.
Status CheckOutputsWritable(const std::vector<OutputTarget>& targets);

}  // namespace treering::cli
