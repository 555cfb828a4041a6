// Gradient histograms: for a node, the sum of (quantised) gradient pairs of its rows per bin.
// Built for the smaller child of each split only; the sibling is parent - child (exact, since
// sums are integers). The builder sees this rank's rows only: what the ranks' histograms then
// become is the histogram sync strategy's business (booster/tree/sync/histogram_sync.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/context.h"
#include "booster/tree/hist/gradient_quantiser.h"
#include "booster/tree/sketch/binned_matrix.h"

namespace treering::booster {

using Histogram = std::vector<GradientPairInt>;

// Row ids of one node, a contiguous range of the row partition.
struct RowSpan {
  const std::uint32_t* begin = nullptr;
  const std::uint32_t* end = nullptr;
  std::size_t size() const { return static_cast<std::size_t>(end - begin); }
};

class HistogramBuilder {
 public:
  // ctx must outlive the builder.
  HistogramBuilder(const BinnedMatrix* matrix, std::uint32_t total_bins, const Context& ctx)
      : matrix_(matrix), total_bins_(total_bins), ctx_(ctx) {}

  // Fills outs[i] (resized to total_bins) with the local histogram of rows[i] (each row's
  // pair quantised on the way). Returns this rank's sum of the quantised pairs of all rows
  // built (for the root: its statistics before the ranks' sum). All nodes of a level are built in
  // one parallel region: the level's rows are cut into one contiguous share per thread
  // (ShareBounds); a node is zeroed and written directly by the thread whose share holds its first
  // row, and the parts of a node cut between shares that other threads hold go through private
  // buffers (at most one per thread), added afterwards with the bins split between the threads.
  GradientPairInt Build(const std::vector<GradientPair>& gpair, const GradientQuantiser& quantiser,
                        const std::vector<RowSpan>& rows, const std::vector<Histogram*>& outs);
  // The root: `all` must be every row 0..n-1 in order (a fresh RowPartition's node 0). The
  // same result as Build({all}, {out}); on sparse data built feature by feature from the
  // column copy, see histogram.cc.
  GradientPairInt BuildRoot(const std::vector<GradientPair>& gpair,
                            const GradientQuantiser& quantiser, RowSpan all, Histogram* out);
  // Where Build cuts the level's concatenated row lists (prefix[i] = rows before list i) into
  // `threads` shares: positions 0 = b[0] <= ... <= b[threads] = prefix.back(). Equal row
  // counts on dense data, equal stored entries on sparse data.
  std::vector<std::size_t> ShareBounds(const std::vector<RowSpan>& rows,
                                       const std::vector<std::size_t>& prefix, int threads) const;
  // outs[i] = parents[i] - children[i], bin by bin, all pairs in one parallel region. Used
  // where the sync strategy does not derive siblings inside the split evaluation.
  void Subtract(const std::vector<const Histogram*>& parents,
                const std::vector<const Histogram*>& children,
                const std::vector<Histogram*>& outs) const;

 private:
  // A node cut between thread shares: this thread's part of it, in a reused buffer.
  struct Partial {
    std::size_t node = 0;
    std::size_t slot = 0;  // index into the thread's partial_buffers_
  };
  GradientPairInt AccumulateRows(const std::vector<GradientPair>& gpair,
                                 const GradientQuantiser& quantiser, const std::uint32_t* begin,
                                 const std::uint32_t* end, GradientPairInt* hist) const;
  GradientPairInt AccumulateShare(const std::vector<GradientPair>& gpair,
                                  const GradientQuantiser& quantiser,
                                  const std::vector<RowSpan>& rows,
                                  const std::vector<std::size_t>& prefix, std::size_t begin,
                                  std::size_t end, const std::vector<Histogram*>& outs,
                                  std::vector<Histogram>* buffers,
                                  std::vector<Partial>* partials) const;
  GradientPairInt BuildRootByColumns(const std::vector<GradientPair>& gpair,
                                     const GradientQuantiser& quantiser, Histogram* out);

  const BinnedMatrix* matrix_;
  std::uint32_t total_bins_;
  const Context& ctx_;
  std::vector<std::vector<Histogram>> partial_buffers_;  // per thread, kept between levels
  std::vector<GradientPairInt> quantised_;  // every row's pair, for the column-wise root
};

}  // namespace treering::booster
