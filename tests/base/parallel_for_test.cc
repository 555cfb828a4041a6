// ParallelFor (static and dynamic) must visit every index once and carry a worker thread's
// exception to the caller.
#include "base/parallel_for.h"

#include <atomic>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

TEST(ParallelFor, VisitsEveryIndexOnce) {
  std::vector<std::atomic<int>> hits(1000);
  treering::ParallelFor(1000, 2, [&](int i) { hits[i]++; });
  for (auto& h : hits) EXPECT_EQ(h.load(), 1);
}

TEST(ParallelFor, RethrowsWorkerException) {
  EXPECT_THROW(treering::ParallelFor(100, 2,
                                     [](int i) {
                                       if (i == 57) throw std::runtime_error("row 57");
                                     }),
               std::runtime_error);
}

TEST(ParallelFor, BlocksCoverRangeExactly) {
  std::vector<std::atomic<int>> hits(37);
  treering::ParallelForBlocks(37, 4, [&](int, std::int64_t b, std::int64_t e) {
    for (auto i = b; i < e; ++i) hits[i]++;
  });
  for (auto& h : hits) EXPECT_EQ(h.load(), 1);
}

TEST(ParallelFor, DynamicVisitsEveryIndexOnceAndRethrows) {
  std::vector<std::atomic<int>> hits(1000);
  treering::ParallelForDynamic(1000, 2, [&](int i) { hits[i]++; });
  for (auto& h : hits) EXPECT_EQ(h.load(), 1);
  EXPECT_THROW(treering::ParallelForDynamic(100, 2,
                                            [](int i) {
                                              if (i == 57) throw std::runtime_error("row 57");
                                            }),
               std::runtime_error);
}
