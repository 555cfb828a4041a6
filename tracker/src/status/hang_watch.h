// The hang watch: from the ranks' latest Reports, finds a collective some ranks entered and
// others did not, or one every rank entered and some never finished, and says so in one line
// once it has lasted `report_after_s` (rabit_hang_report), then again at 2x, 4x, ... that time
// while it lasts. Pure: the coordinator calls Check on a timer and prints the line.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "status/job_status.h"

namespace treering::tracker {

class HangWatch {
 public:
  // `report_after_s`: the tracker's --hang-report; a rank's rabit_hang_report (sent in its
  // Reports) overrides it, the smallest of the ranks' values winning.
  explicit HangWatch(double report_after_s) : after_s_(report_after_s) {}

  // A line to print now, or nothing. `ranks` is JobStatus::ranks().
  std::optional<std::string> Check(const std::vector<RankStatus>& ranks, SteadyTime now);
  // A stall is being watched (its line may already have been printed).
  bool stalled() const { return !key_.empty(); }

 private:
  std::optional<std::string> Due(const std::string& key, double waited_s, std::string line,
                                 double after_s);

  double after_s_;
  std::string key_;  // the stall the last line was about ("" none)
  double next_s_ = 0;
};

// The seconds a stall lasts before its first line: the smallest rabit_hang_report a rank sent,
// else `tracker_s` (--hang-report). 0: no lines.
double HangReportAfter(const std::vector<RankStatus>& ranks, double tracker_s);

// "0-2,4-7": ascending ranks, runs of consecutive ones joined.
std::string RankRanges(const std::vector<int>& ranks);

}  // namespace treering::tracker
