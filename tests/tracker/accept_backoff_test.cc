// The accept loop's back-off when accept() fails (EMFILE): delays double from 50 ms to a 1 s
// cap and reset on success; log lines come at most once per report interval and count the
// failures they stand for.
#include "accept_backoff.h"

#include <gtest/gtest.h>

namespace treering::tracker {
namespace {

using std::chrono::milliseconds;

TEST(AcceptBackoffTest, DelaysDoubleToACapAndResetOnSuccess) {
  AcceptBackoff b;
  const auto t0 = AcceptBackoff::Clock::now();
  std::vector<long> delays;
  for (int i = 0; i < 7; ++i)
    delays.push_back(b.OnFailure("Too many open files", t0).delay.count());
  EXPECT_EQ(delays, (std::vector<long>{50, 100, 200, 400, 800, 1000, 1000}));
  b.OnSuccess();
  EXPECT_EQ(b.OnFailure("Too many open files", t0).delay, milliseconds(50));
}

TEST(AcceptBackoffTest, ReportsOncePerIntervalWithTheCount) {
  AcceptBackoff b;
  const auto t0 = AcceptBackoff::Clock::now();
  auto first = b.OnFailure("Too many open files", t0);
  ASSERT_TRUE(first.report.has_value());
  EXPECT_NE(first.report->find("Too many open files (1 time(s)"), std::string::npos)
      << *first.report;
  int reports = 0;
  for (int i = 1; i <= 99; ++i) {
    // 99 failures within the first 4.95 s: none reported on its own.
    if (b.OnFailure("EMFILE", t0 + milliseconds(50 * i)).report) ++reports;
  }
  EXPECT_EQ(reports, 0);
  auto later = b.OnFailure("EMFILE", t0 + AcceptBackoff::kReportInterval);
  ASSERT_TRUE(later.report.has_value());
  EXPECT_NE(later.report->find("(100 time(s)"), std::string::npos) << *later.report;
}

}  // namespace
}  // namespace treering::tracker
