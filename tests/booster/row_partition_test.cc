// RowPartition::Split (branch-free block partition) against std::stable_partition, on
// several nodes per batch, for 1 and 2 threads, with nodes smaller and larger than a block;
// ResetKeptFirst's kept-rows-first order (subsample) and its survival through splits.
#include "booster/tree/grow/row_partition.h"

#include <algorithm>
#include <numeric>
#include <random>

#include <gtest/gtest.h>

namespace treering::booster {
namespace {

std::vector<std::uint32_t> RowsOf(const RowPartition& p, int node) {
  const RowSpan s = p.Rows(node);
  return {s.begin, s.end};
}

TEST(RowPartition, SplitEqualsStablePartitionForAnyThreadCount) {
  constexpr std::size_t kRows = 20011;  // not a multiple of the 2048-row block
  std::mt19937 rng(3);
  std::vector<std::uint8_t> coin(kRows);
  for (auto& c : coin) c = static_cast<std::uint8_t>(rng() % 100);
  for (int nthread : {1, 2}) {
    RowPartition p;
    p.Reset(kRows);
    // Level 1: root -> 1, 2 with ~30% left. Level 2: both children, thresholds 0 (all
    // right), 100 (all left) and mixed, so empty sides are covered too.
    const auto level = [&](const std::vector<RowPartition::SplitTask>& tasks,
                           const std::vector<int>& thresholds) {
      std::vector<std::vector<std::uint32_t>> want;
      for (std::size_t k = 0; k < tasks.size(); ++k) {
        std::vector<std::uint32_t> rows = RowsOf(p, tasks[k].node);
        std::stable_partition(rows.begin(), rows.end(),
                              [&](std::uint32_t r) { return coin[r] < thresholds[k]; });
        want.push_back(rows);
      }
      p.Split(
          tasks,
          [&](std::size_t k) {
            const int t = thresholds[k];
            const std::uint8_t* c = coin.data();
            return [c, t](std::uint32_t row) { return c[row] < t; };
          },
          nthread);
      for (std::size_t k = 0; k < tasks.size(); ++k) {
        std::vector<std::uint32_t> got = RowsOf(p, tasks[k].left);
        const std::vector<std::uint32_t> right = RowsOf(p, tasks[k].right);
        got.insert(got.end(), right.begin(), right.end());
        EXPECT_EQ(got, want[k]) << "nthread " << nthread << " task " << k;
        for (std::uint32_t r : RowsOf(p, tasks[k].left)) ASSERT_LT(coin[r], thresholds[k]);
        for (std::uint32_t r : right) ASSERT_GE(coin[r], thresholds[k]);
      }
    };
    level({{0, 1, 2}}, {30});
    level({{1, 3, 4}, {2, 5, 6}}, {60, 45});
    level({{3, 7, 8}, {4, 9, 10}, {5, 11, 12}}, {0, 100, 7});
    std::vector<std::uint32_t> all;
    for (int leaf = 6; leaf <= 12; ++leaf) {
      const auto rows = RowsOf(p, leaf);
      all.insert(all.end(), rows.begin(), rows.end());
    }
    std::sort(all.begin(), all.end());
    std::vector<std::uint32_t> every(kRows);
    std::iota(every.begin(), every.end(), 0u);
    EXPECT_EQ(all, every);
  }
}

// subsample's row set: the kept rows first, each part ascending, for any thread count, and
// after splits every new node's kept rows are a prefix of its range (KeptPrefix).
TEST(RowPartition, KeptRowsStayAPrefixOfEveryNode) {
  constexpr std::size_t kRows = 20011;
  std::mt19937 rng(5);
  std::vector<std::uint8_t> coin(kRows), in_sample(kRows);
  for (std::size_t r = 0; r < kRows; ++r) {
    coin[r] = static_cast<std::uint8_t>(rng() % 100);
    in_sample[r] = rng() % 5 != 0;  // 80 %, as subsample = 0.8
  }
  const auto keep = [&](std::uint32_t row) { return in_sample[row] != 0; };
  std::vector<std::uint32_t> want_root;
  for (std::uint32_t r = 0; r < kRows; ++r) {
    if (keep(r)) want_root.push_back(r);
  }
  const std::size_t num_kept = want_root.size();
  for (std::uint32_t r = 0; r < kRows; ++r) {
    if (!keep(r)) want_root.push_back(r);
  }
  for (int nthread : {1, 2, 3}) {
    RowPartition p;
    EXPECT_EQ(p.ResetKeptFirst(kRows, keep, nthread), num_kept);
    EXPECT_EQ(RowsOf(p, 0), want_root) << "nthread " << nthread;
    // A node's range holds the property until the node is split (its range then holds its
    // children's), so the nodes are checked right after the split that made them.
    const auto check = [&](int node) {
      const std::vector<std::uint32_t> rows = RowsOf(p, node);
      std::vector<std::uint32_t> want;
      for (std::uint32_t r : rows) {
        if (keep(r)) want.push_back(r);
      }
      const RowSpan kept = p.KeptPrefix(node, keep);
      EXPECT_EQ(std::vector<std::uint32_t>(kept.begin, kept.end), want)
          << "node " << node << " nthread " << nthread;
      EXPECT_TRUE(std::is_partitioned(rows.begin(), rows.end(), keep)) << "node " << node;
    };
    check(0);
    p.Split(
        {{0, 1, 2}}, [&](std::size_t) { return [&](std::uint32_t r) { return coin[r] < 30; }; },
        nthread);
    check(1);
    check(2);
    p.Split(
        {{1, 3, 4}, {2, 5, 6}},
        [&](std::size_t k) {
          const int t = k == 0 ? 60 : 45;
          return [&coin, t](std::uint32_t r) { return coin[r] < t; };
        },
        nthread);
    for (int node : {3, 4, 5, 6}) check(node);
  }
}

}  // namespace
}  // namespace treering::booster
