// The leaves of the rows a subsample left out of a tree. They add nothing to any histogram,
// so they go through none of the tree's levels (RowPartition::DropLeftOut); the margins still
// need their leaves, found here once the tree is grown: each row walks down it by the
// decisions the partition makes for its sampled rows (local bin <= split_bin, the category
// table, the default direction for a missing value), so every row gets the leaf it got when
// all rows were moved at every level. On higgs1m at subsample=0.8 a walk reads each
// left-out row's 28 bins once, in ascending row order, where the partition read one
// scattered bin per row and level and moved the row twice (read, scratch, back). Measured
// (thread CPU, 30 trees, nthread=1, load ~7): the partition lost ~6 ms a tree and the walk
// took ~6.5 ms, bound by fetching the rows' lines (18 MB a tree) from memory; alone, with the
// matrix in cache, the walk takes 2.8 ms (docs/benchmarks.md, fourth forest pass).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "base/parallel_for.h"
#include "booster/tree/grow/tree_grower.h"
#include "booster/work_split.h"

namespace treering::booster {
namespace {

// One node of the general walk: a split (left >= 0) or a leaf.
struct WalkNode {
  std::uint32_t feature = 0;
  std::int32_t split_bin = 0;  // numerical: bins <= split_bin go left
  std::int32_t left = -1, right = -1;
  std::int32_t table = -1;  // categorical: offset of its bin -> goes left table, else -1
  bool default_left = false;
};

// One node of the dense numerical walk: the right child is next = left + (bin > split_bin);
// a leaf is its own child (next = itself whatever the bin), so every row takes the same
// number of steps (the tree's depth) and no step branches on the row's bins or depth (perf:
// a walk that branched on each decision cost more than the partition passes it saved).
struct DenseStep {
  std::uint32_t feature;
  std::int32_t split_bin;
  std::int32_t left;
};

// Rows walked together: their steps are independent chains of two loads each (the step, the
// row's bin), which the core overlaps; the rows this far ahead are fetched (the left-out rows
// are ascending but ~1/(1 - subsample) rows apart, so a row's bins are often on a line no
// row before it touched). A standalone A/B on 200 K of 1M x 28 rows, a depth-8 tree, min of
// 15: 4 rows / 16 ahead 4.1 ms, 8 / 64 2.9-3.2, 16 / 32 2.8-3.0, 32 / 64 3.6; one step
// (just the rows' loads) 1.1 ms.
constexpr std::int64_t kRowsAtOnce = 16;
constexpr std::int64_t kPrefetchRows = 32;

// Dense rows (no missing values) and numerical splits only.
template <typename Bin>
void WalkDense(const Bin* bins, std::size_t nf, const std::vector<DenseStep>& steps, int depth,
               RowSpan rows, int nthread, std::int32_t* leaf_of) {
  const DenseStep* step = steps.data();
  ParallelForBlocks(static_cast<std::int64_t>(rows.size()), ThreadsFor(rows.size() * 8, nthread),
                    [&](int, std::int64_t begin, std::int64_t end) {
                      const std::uint32_t* row = rows.begin;
                      const auto fetch = [&](std::int64_t i) {
                        if (i + kPrefetchRows < end) {
                          const Bin* r = bins + std::size_t(row[i + kPrefetchRows]) * nf;
                          __builtin_prefetch(r);
                          __builtin_prefetch(r + nf - 1);
                        }
                      };
                      std::int64_t i = begin;
                      for (; i + kRowsAtOnce <= end; i += kRowsAtOnce) {
                        const Bin* r[kRowsAtOnce];
                        std::int32_t n[kRowsAtOnce];
                        for (int k = 0; k < kRowsAtOnce; ++k) {
                          fetch(i + k);
                          r[k] = bins + std::size_t(row[i + k]) * nf;
                          n[k] = 0;
                        }
                        for (int d = 0; d < depth; ++d) {
                          for (int k = 0; k < kRowsAtOnce; ++k) {
                            const DenseStep& s = step[n[k]];
                            n[k] = s.left + (std::int32_t(r[k][s.feature]) > s.split_bin);
                          }
                        }
                        for (int k = 0; k < kRowsAtOnce; ++k) leaf_of[i + k] = n[k];
                      }
                      for (; i < end; ++i) {
                        const Bin* r = bins + std::size_t(row[i]) * nf;
                        std::int32_t n = 0;
                        for (int d = 0; d < depth; ++d) {
                          n = step[n].left + (std::int32_t(r[step[n].feature]) > step[n].split_bin);
                        }
                        leaf_of[i] = n;
                      }
                    });
}

}  // namespace

void TreeGrower::PlaceLeftOutRows(const RegTree& tree,
                                  const std::vector<std::int32_t>& split_bins) {
  const RowSpan rows = partition_.LeftOut();
  left_out_leaf_.resize(rows.size());
  const int num_nodes = tree.NumNodes();
  bool numerical = true;
  for (int n = 0; n < num_nodes; ++n) numerical = numerical && !tree.IsCategorical(n);
  if (numerical && matrix_.layout() != BinnedMatrix::Layout::kSparse) {
    std::vector<DenseStep> steps(num_nodes);
    std::vector<int> depth(num_nodes, 0);
    int max_depth = 0;
    for (int n = 0; n < num_nodes; ++n) {
      if (n > 0) depth[n] = depth[tree.parent[n]] + 1;  // a parent's id is below its children's
      max_depth = std::max(max_depth, depth[n]);
      if (tree.IsLeaf(n)) {
        steps[n] = {0, std::numeric_limits<std::int32_t>::max(), n};
        continue;
      }
      // AddNode makes the right child right after the left one (TreeGrower::ApplySplit).
      if (tree.right[n] != tree.left[n] + 1) {
        numerical = false;
        break;
      }
      steps[n] = {static_cast<std::uint32_t>(tree.split_index[n]), split_bins[n], tree.left[n]};
    }
    if (numerical) {
      const std::size_t nf = matrix_.NumFeatures();
      if (matrix_.layout() == BinnedMatrix::Layout::kDense8) {
        WalkDense(matrix_.Dense8(), nf, steps, max_depth, rows, ctx_.Threads(),
                  left_out_leaf_.data());
      } else {
        WalkDense(matrix_.Dense16(), nf, steps, max_depth, rows, ctx_.Threads(),
                  left_out_leaf_.data());
      }
      return;
    }
  }
  // Sparse rows or categorical splits: one decision at a time through LocalBin (a search in a
  // sparse row), missing values to the default side, categories through their tables.
  std::vector<WalkNode> nodes(num_nodes);
  std::vector<std::uint8_t> tables;
  for (int n = 0; n < num_nodes; ++n) {
    if (tree.IsLeaf(n)) continue;
    WalkNode& w = nodes[n];
    w.feature = tree.split_index[n];
    w.split_bin = split_bins[n];
    w.left = tree.left[n];
    w.right = tree.right[n];
    w.default_left = tree.default_left[n] != 0;
    if (tree.IsCategorical(n)) {
      const std::vector<std::uint8_t> table = BinTable(tree, n, w.split_bin);
      w.table = static_cast<std::int32_t>(tables.size());
      tables.insert(tables.end(), table.begin(), table.end());
    }
  }
  const WalkNode* node_of = nodes.data();
  const std::uint8_t* table_of = tables.data();
  std::int32_t* leaf_of = left_out_leaf_.data();
  const BinnedMatrix* m = &matrix_;
  ParallelForBlocks(static_cast<std::int64_t>(rows.size()),
                    ThreadsFor(rows.size() * 8, ctx_.Threads()),
                    [&](int, std::int64_t begin, std::int64_t end) {
                      for (std::int64_t i = begin; i < end; ++i) {
                        const std::uint32_t row = rows.begin[i];
                        std::int32_t n = 0;
                        while (node_of[n].left >= 0) {
                          const WalkNode& w = node_of[n];
                          const int bin = m->LocalBin(row, w.feature);
                          const bool left = bin < 0       ? w.default_left
                                            : w.table < 0 ? bin <= w.split_bin
                                                          : table_of[w.table + bin] != 0;
                          n = left ? w.left : w.right;
                        }
                        leaf_of[i] = n;
                      }
                    });
}

}  // namespace treering::booster
