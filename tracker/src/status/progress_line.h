// The tracker's one updating line on a terminal (docs/status.md): "round 12/100, 0.31 s/round,
// about 27 s left" once two rounds are done, redrawn in place ("\r", erase to end of line) and
// moved out of the way of every other line the tracker prints (metric lines, logs). Off when
// stderr is not a terminal: a log file gets no control characters.
#pragma once

#include <cstdio>
#include <string>

#include "status/job_status.h"

namespace treering::tracker {

// "round 12/100, 0.31 s/round, about 27 s left"; without a total, "round 12, 0.31 s/round".
std::string FormatProgress(const RoundPace& pace);

class ProgressLine {
 public:
  explicit ProgressLine(bool enabled, std::FILE* out = stderr) : enabled_(enabled), out_(out) {}

  void Show(std::string text);
  void Clear();    // before another line is printed
  void Restore();  // after it
  void Finish();   // the job ended: erase it for good

 private:
  bool enabled_;
  std::FILE* out_;
  bool shown_ = false;
  std::string text_;
};

}  // namespace treering::tracker
