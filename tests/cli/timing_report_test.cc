// The timing report's arithmetic: per-round means, T_sync/T_comp, the sync-SGD model's
// predicted speedup R*T_comp/(T_comp+T_sync) and the measured one from single_worker_seconds;
// the link model's predicted T_sync and round, checked against the formula computed here.
#include "timing_report.h"

#include <cstdio>

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

TEST(TimingReport, AllreduceStepsAreHalvingDoublingWithAFold) {
  EXPECT_EQ(AllreduceSteps(1), 0);
  EXPECT_EQ(AllreduceSteps(2), 2);
  EXPECT_EQ(AllreduceSteps(3), 4);  // fold 1 rank in and out + 2 steps over 2
  EXPECT_EQ(AllreduceSteps(4), 4);
  EXPECT_EQ(AllreduceSteps(5), 6);
  EXPECT_EQ(AllreduceSteps(8), 6);
}

TEST(TimingReport, PredictedSyncIsLatencyStepsPlusBytesOverTheLink) {
  // 4 ranks on 1 Gbit/s links, 50 us: 10 calls x 4 steps x 50 us = 2 ms, and 16 MB crossing
  // each link 2*3/4 times at 125e6 bytes/s = 0.192 s.
  const LinkModel link{1000, 50};
  EXPECT_DOUBLE_EQ(PredictedSyncSeconds(4, 16e6, 10, link), 10 * 4 * 50e-6 + 1.5 * 16e6 / 125e6);
  // 100 Mbit/s: the byte term is 10x.
  EXPECT_DOUBLE_EQ(PredictedSyncSeconds(4, 16e6, 10, {100, 50}), 2e-3 + 1.5 * 16e6 / 12.5e6);
  // 2 ranks send each byte once each way; one rank has no link.
  EXPECT_DOUBLE_EQ(PredictedSyncSeconds(2, 8e6, 1, link), 2 * 50e-6 + 8e6 / 125e6);
  EXPECT_DOUBLE_EQ(PredictedSyncSeconds(1, 8e6, 1, link), 0.0);
}

// tree_learner=data reduce-scatters the histograms: a rank's slice of S bytes is counted once
// but the ring sends every other rank's slice, (R-1) x S on the wire, where an allreduced byte
// crosses 2(R-1)/R times. At 4 ranks 4 MB of slices cost 12 MB, 16 MB allreduced 24 MB.
TEST(TimingReport, ReduceScatteredBytesCrossTheLinkRMinusOneTimes) {
  const LinkModel link{1000, 50};
  const double latency = 10 * 4 * 50e-6;
  EXPECT_DOUBLE_EQ(PredictedSyncSeconds(4, 4e6 + 1e6, 10, link, 4e6),
                   latency + (3 * 4e6 + 1.5 * 1e6) / 125e6);
  // At 2 ranks both count once: the slice model and the allreduce model agree.
  EXPECT_DOUBLE_EQ(PredictedSyncSeconds(2, 8e6, 1, link, 8e6),
                   PredictedSyncSeconds(2, 8e6, 1, link));
  RoundTotals t;
  t.workers = 4;
  t.rounds = 1;
  t.comp_s = 0.05;
  t.sync_s = 0.2;
  t.payload_bytes = 5e6;
  t.scattered_bytes = 4e6;
  t.calls = 10;
  const auto lines = FormatTimingReport(t, 0, link);
  ASSERT_GE(lines.size(), 3u);
  EXPECT_NE(lines[2].find("+ (2*3/4 x 1000000 + 3 x 4000000 reduce-scattered) bytes / 1000 "
                          "Mbit/s = 0.0020 + 0.1080 = 0.1100 s"),
            std::string::npos)
      << lines[2];
}

TEST(TimingReport, LinkModelComesFromTheRabitKeys) {
  EXPECT_FALSE(LinkModelFromParams({}).has_value());
  EXPECT_FALSE(LinkModelFromParams({{"rabit_timeout", "30"}}).has_value());
  auto link = LinkModelFromParams({{"rabit_link_bandwidth_mbps", "100"},
                                   {"rabit_link_latency_us", "80"},
                                   {"rabit_link_bandwidth_mbps", "1000"}});  // last one wins
  ASSERT_TRUE(link.has_value());
  EXPECT_DOUBLE_EQ(link->bandwidth_mbps, 1000);
  EXPECT_DOUBLE_EQ(link->latency_us, 80);
  // A key not given keeps rabit's default (docs/collectives.md: 20 us, 20000 Mbit/s).
  link = LinkModelFromParams({{"rabit_link_bandwidth_mbps", "1000"}});
  ASSERT_TRUE(link.has_value());
  EXPECT_DOUBLE_EQ(link->latency_us, 20);
}

TEST(TimingReport, LinkLinesPredictTheRoundAndNameTheBottleneck) {
  RoundTotals t;
  t.workers = 4;
  t.rounds = 10;
  t.comp_s = 0.5;      // 0.05 s per round, mean over ranks
  t.comp_max_s = 0.6;  // slowest rank: 0.06 s per round
  t.sync_s = 2.1;      // 0.21 s per round
  t.payload_bytes = 160e6;
  t.calls = 100;
  const auto lines = FormatTimingReport(t, 12.0, LinkModel{1000, 50});
  ASSERT_EQ(lines.size(), 5u);
  const double sync = 10 * 4 * 50e-6 + 1.5 * 16e6 / 125e6;  // 0.194 s
  const double round = 0.06 + sync;                         // 0.254 s
  char expected[512];
  std::snprintf(expected, sizeof(expected),
                "treering: timing: link 1000 Mbit/s, 50 us: predicted T_sync per round = 10.0 "
                "calls x 4 steps x 50 us + 2*3/4 x 16000000 bytes / 1000 Mbit/s = 0.0020 + "
                "0.1920 = %.4f s (measured 0.2100 s)",
                sync);
  EXPECT_EQ(lines[2], expected);
  std::snprintf(expected, sizeof(expected),
                "treering: timing: predicted round = T_comp (slowest worker) + predicted T_sync "
                "= 0.0600 + %.4f = %.4f s; measured 0.2600 s, measured/predicted %.2f; "
                "bottleneck: sync (%.0f%% of the predicted round)",
                sync, round, 0.26 / round, 100 * sync / round);
  EXPECT_EQ(lines[3], expected);
  std::snprintf(expected, sizeof(expected),
                "treering: timing: speed-up over 1 host (its round 1.2000 s, "
                "single_worker_seconds / rounds): predicted %.2f, measured %.2f",
                1.2 / round, 1.2 / 0.26);
  EXPECT_EQ(lines[4], expected);
}

TEST(TimingReport, ComputeBoundWithoutSlowestRankUsesTheMean) {
  RoundTotals t;
  t.workers = 2;
  t.rounds = 2;
  t.comp_s = 2.0;  // 1 s per round; comp_max_s unknown
  t.sync_s = 0.2;
  t.payload_bytes = 2e6;
  t.calls = 4;
  const auto lines = FormatTimingReport(t, 0, LinkModel{1000, 50});
  ASSERT_EQ(lines.size(), 4u);  // no speed-up line without single_worker_seconds
  EXPECT_NE(lines[3].find("= 1.0000 + 0.0082 = 1.0082 s"), std::string::npos) << lines[3];
  EXPECT_NE(lines[3].find("bottleneck: compute (99% of the predicted round)"), std::string::npos)
      << lines[3];
}

TEST(TimingReport, NoLinkLinesForOneWorkerOrNoModel) {
  RoundTotals t;
  t.rounds = 3;
  t.comp_s = 1.0;
  EXPECT_EQ(FormatTimingReport(t, 0, LinkModel{1000, 50}).size(), 2u);
  t.workers = 4;
  EXPECT_EQ(FormatTimingReport(t, 0).size(), 2u);
}

}  // namespace
}  // namespace treering::cli
