// RowPartition: one array of row ids in which every tree node owns a contiguous range.
// Splitting a node reorders its range stably (left rows first, then right) in parallel blocks,
// so the order, and hence every later sum, is independent of the thread count.
#pragma once

#include "booster/work_split.h"
#include <cstddef>
#include <cstdint>
#include <vector>

#include "booster/histogram.h"
#include "data/parallel_for.h"

namespace treering::booster {

class RowPartition {
 public:
  // All rows 0..num_rows-1 in the root (node 0).
  void Reset(std::size_t num_rows);
  RowSpan Rows(int node) const {
    const Range& r = ranges_[node];
    return {rows_.data() + r.begin, rows_.data() + r.end};
  }
  std::size_t NumRows(int node) const { return ranges_[node].end - ranges_[node].begin; }

  // Moves the rows of `node` for which go_left(row) holds to the front of its range; `left`
  // and `right` become the two parts.
  template <typename GoLeft>
  void Split(int node, int left, int right, GoLeft&& go_left, int nthread);

 private:
  struct Range {
    std::size_t begin = 0, end = 0;
  };
  static constexpr std::size_t kBlock = 2048;
  void SetRange(int node, std::size_t begin, std::size_t end);

  std::vector<std::uint32_t> rows_;
  std::vector<std::uint32_t> scratch_;
  std::vector<Range> ranges_;
};

template <typename GoLeft>
void RowPartition::Split(int node, int left, int right, GoLeft&& go_left, int nthread) {
  const Range range = ranges_[node];
  const std::size_t n = range.end - range.begin;
  const std::size_t blocks = (n + kBlock - 1) / kBlock;
  std::vector<std::size_t> left_count(blocks + 1, 0);
  std::uint32_t* rows = rows_.data() + range.begin;
  std::uint32_t* tmp = scratch_.data() + range.begin;
  // Step 1: each block writes its left rows from the block start, right rows from the end.
  const int threads = ThreadsFor(n, nthread);
  ParallelFor(blocks, threads, [&](std::size_t b) {
    const std::size_t begin = b * kBlock, end = std::min(n, begin + kBlock);
    std::size_t l = begin, r = end;
    for (std::size_t i = begin; i < end; ++i) {
      if (go_left(rows[i])) tmp[l++] = rows[i];
      else tmp[--r] = rows[i];
    }
    left_count[b + 1] = l - begin;
  });
  for (std::size_t b = 0; b < blocks; ++b) left_count[b + 1] += left_count[b];
  const std::size_t total_left = left_count[blocks];
  // Step 2: gather the blocks' left parts, then their right parts (restoring their order).
  ParallelFor(blocks, threads, [&](std::size_t b) {
    const std::size_t begin = b * kBlock, end = std::min(n, begin + kBlock);
    const std::size_t nl = left_count[b + 1] - left_count[b];
    std::copy(tmp + begin, tmp + begin + nl, rows + left_count[b]);
    std::uint32_t* out = rows + total_left + (begin - left_count[b]);
    for (std::size_t i = end; i > begin + nl; --i) *out++ = tmp[i - 1];
  });
  SetRange(left, range.begin, range.begin + total_left);
  SetRange(right, range.begin + total_left, range.end);
}

}  // namespace treering::booster
