// What the accept loop does when accept() keeps failing. At EMFILE / ENFILE the pending
// connection stays in the kernel's queue, so the listening socket stays readable and a loop that
// retries at once spins a core and floods the log. Instead: wait 50 ms, doubling up to 1 s,
// until an accept succeeds; and say so at most once per report interval, with the count of
// failures since the last report. Pure (the caller sleeps and logs), so it is unit-tested.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace treering::tracker {

class AcceptBackoff {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::milliseconds kFirstDelay{50};
  static constexpr std::chrono::milliseconds kMaxDelay{1000};
  static constexpr std::chrono::seconds kReportInterval{5};

  struct Step {
    std::chrono::milliseconds delay;    // sleep this long before accepting again
    std::optional<std::string> report;  // a log line, when one is due
  };
  // One failed accept (`error` is its message) at time `now`.
  Step OnFailure(const std::string& error, Clock::time_point now);
  void OnSuccess() { delay_ = std::chrono::milliseconds(0); }

 private:
  std::chrono::milliseconds delay_{0};
  std::optional<Clock::time_point> last_report_;
  std::uint64_t unreported_ = 0;
};

}  // namespace treering::tracker
