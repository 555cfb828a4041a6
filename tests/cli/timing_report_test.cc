// The timing report's arithmetic: per-round means, T_sync/T_comp, the sync-SGD model's
// predicted speedup R*T_comp/(T_comp+T_sync) and the measured one from single_worker_seconds.
#include "timing_report.h"

#include <gtest/gtest.h>

namespace treering::cli {
namespace {

TEST(TimingReport, PredictedSpeedupIsTheSyncSgdModel) {
  // Tutorial's model: N/B*T_comp on one node vs N/(R*B)*(T_comp+T_sync) on R.
  EXPECT_DOUBLE_EQ(PredictedSpeedup(4, 0.3, 0.1), 4 * 0.3 / 0.4);
  EXPECT_DOUBLE_EQ(PredictedSpeedup(1, 2.0, 0.0), 1.0);
  // Break-even exactly when T_sync/T_comp = R - 1 (the tutorial's inequality (3)).
  EXPECT_DOUBLE_EQ(PredictedSpeedup(3, 1.0, 2.0), 1.0);
  EXPECT_DOUBLE_EQ(PredictedSpeedup(2, 0.0, 0.0), 0.0);
}

TEST(TimingReport, LinesArePerRoundMeans) {
  RoundTotals t;
  t.workers = 4;
  t.rounds = 10;
  t.comp_s = 3.0;  // 0.3 s per round
  t.sync_s = 1.0;  // 0.1 s per round
  t.payload_bytes = 20480;
  t.calls = 125;
  const auto lines = FormatTimingReport(t, 0);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0],
            "treering: timing: 10 rounds on 4 workers in 4.000 s; per round (mean over workers): "
            "T_comp 0.3000 s, T_sync 0.1000 s, T_sync/T_comp 0.333, 2048 bytes in 12.5 "
            "collectives");
  EXPECT_EQ(lines[1],
            "treering: timing: speedup predicted by R*T_comp/(T_comp+T_sync) = "
            "4*0.3000/(0.3000+0.1000) = 3.00");
}

TEST(TimingReport, MeasuredSpeedupFromSingleWorkerSeconds) {
  RoundTotals t;
  t.workers = 2;
  t.rounds = 5;
  t.comp_s = 1.5;
  t.sync_s = 0.5;
  const auto lines = FormatTimingReport(t, 3.0);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1],
            "treering: timing: speedup predicted by R*T_comp/(T_comp+T_sync) = "
            "2*0.3000/(0.3000+0.1000) = 1.50; measured 3.000/2.000 = 1.50 "
            "(single_worker_seconds / this job's rounds)");
}

TEST(TimingReport, ZeroRoundsDoesNotDivideByZero) {
  RoundTotals t;
  const auto lines = FormatTimingReport(t, 5.0);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find("0 rounds on 1 worker in 0.000 s"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[1].find("measured"), std::string::npos) << lines[1];
}

}  // namespace
}  // namespace treering::cli
