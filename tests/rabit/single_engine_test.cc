// With no tracker in the environment rabit is a world of one: collectives leave data as it is
// and still call `prepare` (the buffer must be filled before a result is "known").
#include <vector>

#include <gtest/gtest.h>

#include "rabit/rabit.h"

TEST(SingleEngine, WorldOfOne) {
  EXPECT_EQ(rabit::GetRank(), 0);
  EXPECT_EQ(rabit::GetWorldSize(), 1);
  EXPECT_FALSE(rabit::IsDistributed());
}

TEST(SingleEngine, AllreduceCallsPrepareAndKeepsData) {
  std::vector<double> v(3, 0.0);
  int calls = 0;
  rabit::Allreduce<rabit::op::Sum>(v.data(), v.size(), [&] {
    ++calls;
    v = {1.5, -2.0, 3.25};
  });
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(v, (std::vector<double>{1.5, -2.0, 3.25}));
}

TEST(SingleEngine, BroadcastFromAnotherRootIsAnError) {
  int x = 7;
  EXPECT_THROW(rabit::Broadcast(&x, sizeof(x), 1), rabit::Error);
  std::string s = "kept";
  rabit::Broadcast(&s, 0);
  EXPECT_EQ(s, "kept");
}

TEST(SingleEngine, AllgatherVReturnsOwnData) {
  std::vector<int> mine = {4, 5, 6};
  std::vector<std::size_t> counts;
  EXPECT_EQ(rabit::AllgatherV(mine, &counts), mine);
  EXPECT_EQ(counts, (std::vector<std::size_t>{3}));
}
