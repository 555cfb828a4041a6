// Gradient histograms: for a node, the sum of (quantised) gradient pairs of its rows per bin.
// Built for the smaller child of each split only; the sibling is parent - child (exact, since
// sums are integers). Distributed: the histograms built in one tree level are allreduced in
// ONE call over one contiguous buffer (single process: no copy, no call).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "booster/binned_matrix.h"
#include "booster/gradient_quantiser.h"

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
  HistogramBuilder(const BinnedMatrix* matrix, std::uint32_t total_bins, int nthread)
      : matrix_(matrix), total_bins_(total_bins), nthread_(nthread) {}

  // Fills outs[i] (resized to total_bins) with the local histogram of rows[i], then sums all
  // of them over ranks in one allreduce.
  void Build(const std::vector<GradientPairInt>& gpair, const std::vector<RowSpan>& rows,
             const std::vector<Histogram*>& outs);
  // out = parent - child, bin by bin.
  void Subtract(const Histogram& parent, const Histogram& child, Histogram* out) const;

 private:
  void BuildLarge(const std::vector<GradientPairInt>& gpair, RowSpan rows, Histogram* out);
  void AccumulateRows(const std::vector<GradientPairInt>& gpair, const std::uint32_t* begin,
                      const std::uint32_t* end, GradientPairInt* hist) const;
  void AllreduceLevel(const std::vector<Histogram*>& outs);

  const BinnedMatrix* matrix_;
  std::uint32_t total_bins_;
  int nthread_;
  std::vector<Histogram> thread_buffers_;  // private partial histograms of threads 1..T-1
};

}  // namespace treering::booster
