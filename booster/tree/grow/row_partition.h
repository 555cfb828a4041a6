// RowPartition: one array of row ids in which every tree node owns a contiguous range.
// Splitting a node reorders its range stably (left rows first, then right) in parallel blocks,
// so the order, and hence every later sum, is independent of the thread count.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "base/parallel_for.h"
#include "booster/tree/hist/histogram.h"
#include "booster/work_split.h"

namespace treering::booster {

class RowPartition {
 public:
  // All rows 0..num_rows-1 in the root (node 0).
  void Reset(std::size_t num_rows);
  // All rows in the root as Reset gives, but those for which keep(row) holds first (each part
  // ascending); returns how many are kept. Split is stable, so every node's range then starts
  // with its kept rows: a row sample's rows are a prefix of every node (KeptPrefix).
  template <typename Keep>
  std::size_t ResetKeptFirst(std::size_t num_rows, Keep&& keep, int nthread);
  // After ResetKeptFirst: the root holds the `kept` rows only, and the others stay after them
  // in the row array (LeftOut) untouched by Split. A subsample's left-out rows add nothing to
  // any histogram: they need a leaf only for the margins, found once per tree (a walk down the
  // finished tree) instead of being moved at every level.
  void DropLeftOut(std::size_t kept) {
    ranges_[0].end = kept;
    left_out_begin_ = kept;
  }
  // The rows DropLeftOut left out (ascending within each thread's block), else none.
  RowSpan LeftOut() const { return {rows_.data() + left_out_begin_, rows_.data() + rows_.size()}; }
  // Every row, the root's first (the root's rows and then LeftOut's).
  RowSpan AllRows() const { return {rows_.data(), rows_.data() + rows_.size()}; }
  // The kept rows of `node`: the prefix of its range for which keep(row) holds.
  template <typename Keep>
  RowSpan KeptPrefix(int node, Keep&& keep) const {
    RowSpan rows = Rows(node);
    rows.end = std::partition_point(rows.begin, rows.end, keep);
    return rows;
  }
  RowSpan Rows(int node) const {
    const Range& r = ranges_[node];
    return {rows_.data() + r.begin, rows_.data() + r.end};
  }
  std::size_t NumRows(int node) const { return ranges_[node].end - ranges_[node].begin; }

  struct SplitTask {
    int node, left, right;
  };
  // For every task, moves the rows of `node` for which go_left_for(task_index)(row) holds to
  // the front of its range; `left` and `right` become the two parts. One parallel region per
  // step for the whole batch (a tree level), blocks of kBlock rows. go_left_for returns a
  // small predicate by value, so its split bin and column live in registers in the loop. A
  // predicate with a Prefetch(row) member is told the row kPrefetchRows positions ahead.
  template <typename GoLeftFor>
  void Split(const std::vector<SplitTask>& tasks, GoLeftFor&& go_left_for, int nthread);

 private:
  struct Range {
    std::size_t begin = 0, end = 0;
  };
  static constexpr std::size_t kBlock = 2048;
  // A deep node's rows are scattered, so each decision is a cache miss in the split feature's
  // column (28 MB of columns on higgs1m): fetched this far ahead (perf samples of the
  // partition on higgs1m: none 3664, 16 rows 3175, 64 rows 2960, 256 rows 2950).
  static constexpr std::size_t kPrefetchRows = 64;
  void SetRange(int node, std::size_t begin, std::size_t end);

  std::vector<std::uint32_t> rows_;
  std::vector<std::uint32_t> scratch_;
  std::vector<Range> ranges_;
  std::size_t left_out_begin_ = 0;  // = rows_.size() unless DropLeftOut
};

template <typename Keep>
std::size_t RowPartition::ResetKeptFirst(std::size_t num_rows, Keep&& keep, int nthread) {
  rows_.resize(num_rows);
  scratch_.resize(num_rows);
  const int threads = ResolveThreads(ThreadsFor(num_rows, nthread));
  const auto bound = [&](int t) { return num_rows * std::size_t(t) / std::size_t(threads); };
  // One pass over the rows (keep reads each row's pair once): block t writes its kept rows
  // from bound(t) on in rows_ and the others from bound(t) on in scratch_; the parts are then
  // moved into place (a count pass first read every pair a second time, 8 bytes a row, where
  // the moves copy 4 bytes a row).
  std::vector<std::size_t> kept(threads + 1, 0);
  ParallelFor(threads, threads, [&](int t) {
    std::size_t in = bound(t), out = bound(t);
    // Branch-free: a 20 % sample is unpredictable row by row (perf: the branch version cost
    // 3 % of a 20-tree forest, as much as the histograms it saved at the root).
    for (std::size_t r = bound(t); r < bound(t + 1); ++r) {
      const auto row = std::uint32_t(r);
      const bool kept_row = keep(row);
      rows_[in] = row;
      scratch_[out] = row;
      in += kept_row;
      out += !kept_row;
    }
    kept[t + 1] = in - bound(t);
  });
  for (int t = 0; t < threads; ++t) kept[t + 1] += kept[t];
  const std::size_t total_kept = kept[threads];
  // Block t's kept rows move left (kept[t] <= bound(t)); in block order no move overwrites
  // rows of a later block not yet moved. The rows left out follow, each block's after the last.
  for (int t = 1; t < threads; ++t) {  // block 0's rows are in place
    std::memmove(rows_.data() + kept[t], rows_.data() + bound(t),
                 (kept[t + 1] - kept[t]) * sizeof(std::uint32_t));
  }
  for (int t = 0; t < threads; ++t) {
    const std::size_t dropped = bound(t + 1) - bound(t) - (kept[t + 1] - kept[t]);
    std::copy_n(scratch_.begin() + bound(t), dropped,
                rows_.begin() + total_kept + bound(t) - kept[t]);
  }
  ranges_.assign(1, Range{0, num_rows});
  left_out_begin_ = num_rows;
  return total_kept;
}

template <typename GoLeftFor>
void RowPartition::Split(const std::vector<SplitTask>& tasks, GoLeftFor&& go_left_for,
                         int nthread) {
  struct Block {
    std::size_t task, begin, end, left = 0;  // [begin, end) in rows_; left rows found
  };
  std::vector<Block> blocks;
  std::vector<std::size_t> first_block(tasks.size() + 1, 0);
  std::size_t total = 0;
  for (std::size_t k = 0; k < tasks.size(); ++k) {
    first_block[k] = blocks.size();
    const Range r = ranges_[tasks[k].node];
    for (std::size_t b = r.begin; b < r.end; b += kBlock) {
      blocks.push_back({k, b, std::min(r.end, b + kBlock)});
    }
    total += r.end - r.begin;
  }
  first_block[tasks.size()] = blocks.size();
  const int threads = ThreadsFor(total, nthread);
  // Step 1: each block writes its left rows from the block start, right rows from the end.
  // Branch-free: a split sends rows either way unpredictably, so every row is stored at both
  // ends of the unwritten gap and only the cursor of its side advances (the other copy is
  // overwritten later; l < r holds until the last row).
  // Blocks cost unevenly (a deep node's rows are scattered, a shallow one's are not; a node's
  // last block is short): dealt dynamically.
  ParallelForDynamic(blocks.size(), threads, [&](std::size_t i) {
    Block& blk = blocks[i];
    const auto go_left = go_left_for(blk.task);
    const std::uint32_t* in = rows_.data();
    std::uint32_t* out = scratch_.data();
    std::size_t l = blk.begin, r = blk.end;
    for (std::size_t j = blk.begin; j < blk.end; ++j) {
      if constexpr (requires { go_left.Prefetch(std::uint32_t{}); }) {
        if (j + kPrefetchRows < blk.end) go_left.Prefetch(in[j + kPrefetchRows]);
      }
      const std::uint32_t row = in[j];
      const bool left = go_left(row);
      out[l] = row;
      out[r - 1] = row;
      l += left;
      r -= !left;
    }
    blk.left = l - blk.begin;
  });
  // Offsets: per task, left rows of all its blocks first, then right rows, blocks in order.
  std::vector<std::size_t> left_out(blocks.size()), right_out(blocks.size());
  for (std::size_t task = 0; task < tasks.size(); ++task) {
    std::size_t n_left = 0;
    for (std::size_t j = first_block[task]; j < first_block[task + 1]; ++j) {
      n_left += blocks[j].left;
    }
    const Range r = ranges_[tasks[task].node];
    std::size_t l = r.begin, rr = r.begin + n_left;
    for (std::size_t j = first_block[task]; j < first_block[task + 1]; ++j) {
      left_out[j] = l;
      right_out[j] = rr;
      l += blocks[j].left;
      rr += blocks[j].end - blocks[j].begin - blocks[j].left;
    }
    SetRange(tasks[task].left, r.begin, r.begin + n_left);
    SetRange(tasks[task].right, r.begin + n_left, r.end);
  }
  // Step 2: copy back; right rows were stored reversed, so read them backwards.
  ParallelFor(blocks.size(), threads, [&](std::size_t i) {
    const Block& blk = blocks[i];
    std::copy(scratch_.begin() + blk.begin, scratch_.begin() + blk.begin + blk.left,
              rows_.begin() + left_out[i]);
    std::size_t out = right_out[i];
    for (std::size_t j = blk.end; j > blk.begin + blk.left; --j) rows_[out++] = scratch_[j - 1];
  });
}

}  // namespace treering::booster
