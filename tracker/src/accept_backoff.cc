#include "accept_backoff.h"

#include <algorithm>

namespace treering::tracker {

AcceptBackoff::Step AcceptBackoff::OnFailure(const std::string& error, Clock::time_point now) {
  delay_ = delay_.count() == 0 ? kFirstDelay : std::min(delay_ * 2, kMaxDelay);
  ++unreported_;
  Step step{delay_, std::nullopt};
  if (!last_report_ || now - *last_report_ >= kReportInterval) {
    step.report = "accept failed: " + error + " (" + std::to_string(unreported_) +
                  " time(s) since the last report); retrying every " +
                  std::to_string(delay_.count()) + " ms at most, existing connections are served";
    last_report_ = now;
    unreported_ = 0;
  }
  return step;
}

}  // namespace treering::tracker
