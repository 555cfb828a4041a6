// The loader's one updating line on a terminal (docs/status.md): "data = train.libsvm: parsing
// 45.2 of 120.0 MB, 85.3 MB/s, 1234567 rows", redrawn in place on stderr while a file is read
// and erased when it is done. Nothing at all when stderr is not a terminal (a log file, a
// worker under treering-submit, whose output is relayed line by line).
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

#include "data/load.h"

namespace treering::cli {

// The line's text for `progress` after `seconds` of this pass.
std::string FormatLoadProgress(const std::string& what, const data::LoadProgress& progress,
                               double seconds);

class LoadProgressLine {
 public:
  // `what`: "data = train.libsvm"; `enabled`: stderr is a terminal.
  LoadProgressLine(std::string what, bool enabled, std::FILE* out = stderr);
  ~LoadProgressLine();  // erases the line
  LoadProgressLine(const LoadProgressLine&) = delete;
  LoadProgressLine& operator=(const LoadProgressLine&) = delete;

  // Sets options->progress to draw this line (when enabled).
  void Attach(data::LoadOptions* options);

 private:
  void Draw(const data::LoadProgress& progress);

  std::string what_;
  bool enabled_;
  std::FILE* out_;
  bool shown_ = false;
  int pass_ = 0;
  std::chrono::steady_clock::time_point pass_start_{};
};

}  // namespace treering::cli
