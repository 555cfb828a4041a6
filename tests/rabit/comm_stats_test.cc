// rabit::GetCommStats counts every collective at the API boundary: calls, the payload handed
// in (not wire bytes) and wall time, also for the single engine and for calls that throw.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "rabit/rabit.h"

namespace {

rabit::CommStats Since(const rabit::CommStats& before) {
  const rabit::CommStats now = rabit::GetCommStats();
  return {now.seconds - before.seconds, now.payload_bytes - before.payload_bytes,
          now.calls - before.calls};
}

TEST(CommStats, CountsPayloadOfEachCollective) {
  const rabit::CommStats before = rabit::GetCommStats();
  std::vector<double> sums(10, 1.0);
  rabit::Allreduce<rabit::op::Sum>(sums.data(), sums.size());  // 80 bytes
  std::int32_t x = 3;
  rabit::Broadcast(&x, sizeof(x), 0);  // 4 bytes
  std::vector<std::uint16_t> slice(5);
  rabit::Allgather(slice.data(), {slice.size() * sizeof(std::uint16_t)});  // 10 bytes
  const rabit::CommStats d = Since(before);
  EXPECT_EQ(d.calls, 3u);
  EXPECT_EQ(d.payload_bytes, 80u + 4u + 10u);
  EXPECT_GE(d.seconds, 0.0);
}

TEST(CommStats, AllgatherVIsASizeAllreducePlusTheGather) {
  const rabit::CommStats before = rabit::GetCommStats();
  const std::vector<float> mine = {1, 2, 3};
  rabit::AllgatherV(mine);
  const rabit::CommStats d = Since(before);
  EXPECT_EQ(d.calls, 2u);
  EXPECT_EQ(d.payload_bytes, sizeof(std::uint64_t) + 3 * sizeof(float));
}

// A reduce-scatter counts this rank's slice (in a world of one, the whole buffer).
TEST(CommStats, ReduceScatterCountsThisRanksSlice) {
  const rabit::CommStats before = rabit::GetCommStats();
  std::vector<std::int64_t> level(6, 1);
  rabit::ReduceScatter<rabit::op::Sum>(level.data(), {level.size()});
  const rabit::CommStats d = Since(before);
  EXPECT_EQ(d.calls, 1u);
  EXPECT_EQ(d.payload_bytes, 6 * sizeof(std::int64_t));
}

TEST(CommStats, AFailedCallIsStillCounted) {
  const rabit::CommStats before = rabit::GetCommStats();
  int x = 1;
  EXPECT_THROW(rabit::Broadcast(&x, sizeof(x), 1), rabit::Error);  // root 1 in a world of one
  EXPECT_EQ(Since(before).calls, 1u);
}

TEST(CommStats, NeverDecreases) {
  const rabit::CommStats a = rabit::GetCommStats();
  double v = 0;
  for (int i = 0; i < 100; ++i) rabit::Allreduce<rabit::op::Max>(&v, 1);
  const rabit::CommStats b = rabit::GetCommStats();
  EXPECT_GE(b.seconds, a.seconds);
  EXPECT_EQ(b.calls - a.calls, 100u);
}

}  // namespace
