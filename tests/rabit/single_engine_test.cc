// With no tracker in the environment rabit is a world of one: collectives leave data as it is
// and still call `prepare` (the buffer must be filled before a result is "known").
#include <cstdint>
#include <string>
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

// A world of one sends to itself (as MPI's does): Isend / Test / Wait and Recv through rabit.h.
TEST(SingleEngine, MessagesToSelf) {
  const std::vector<std::int32_t> sent = {1, -2, 3};
  std::vector<std::int32_t> got(3, 0);
  rabit::Request in = rabit::Irecv(got.data(), got.size(), rabit::kAnySource, 7);
  EXPECT_FALSE(in.Test());
  rabit::Request out = rabit::Isend(sent.data(), sent.size(), 0, 7);
  EXPECT_EQ(out.Wait(), 0);
  EXPECT_TRUE(in.Test());
  EXPECT_EQ(in.Wait(), 0);
  EXPECT_EQ(got, sent);
  // Send first (buffered), then Recv.
  const double x = 0.5;
  double y = 0;
  rabit::Send(&x, 1, 0, 1);
  EXPECT_EQ(rabit::Recv(&y, 1, 0, 1), 0);
  EXPECT_EQ(y, 0.5);
}

TEST(SingleEngine, MessageErrorsAreClear) {
  double y = 0;
  // Nothing can ever send it: an error, not a hang.
  try {
    rabit::Recv(&y, 1, 0, 3);
    FAIL() << "Recv did not throw";
  } catch (const rabit::Error& e) {
    EXPECT_NE(std::string(e.what()).find("wait forever"), std::string::npos) << e.what();
  }
  EXPECT_THROW(rabit::Send(&y, 1, 1, 0), rabit::Error);   // no rank 1
  EXPECT_THROW(rabit::Send(&y, 1, 0, -1), rabit::Error);  // negative tags are reserved
  // A count mismatch names both ranks (here the same one).
  const std::int32_t three[3] = {1, 2, 3};
  std::int32_t two[2];
  rabit::Send(three, 3, 0, 4);
  try {
    rabit::Recv(two, 2, 0, 4);
    FAIL() << "Recv did not throw";
  } catch (const rabit::Error& e) {
    EXPECT_NE(std::string(e.what()).find("rank 0 posted a receive of 2 x int32"), std::string::npos)
        << e.what();
  }
}

TEST(SingleEngine, RootedCollectivesCopy) {
  std::vector<float> buf = {1, 2, 3};
  rabit::Reduce<rabit::op::Sum>(buf.data(), buf.size(), 0);
  EXPECT_EQ(buf, (std::vector<float>{1, 2, 3}));
  std::vector<float> all(3);
  rabit::Gather(buf.data(), 3, all.data(), 0);
  EXPECT_EQ(all, buf);
  std::vector<float> part(3);
  rabit::ScatterV(all.data(), {3}, part.data(), 0);
  EXPECT_EQ(part, buf);
  rabit::Barrier();
  EXPECT_THROW(rabit::Reduce<rabit::op::Sum>(buf.data(), buf.size(), 1), rabit::Error);
}
