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
#include "rabit/comm.h"

namespace treering::booster {

using Histogram = std::vector<GradientPairInt>;
class FeatureOwners;  // booster/tree/src/feature_owners.h

// Row ids of one node, a contiguous range of the row partition.
struct RowSpan {
  const std::uint32_t* begin = nullptr;
  const std::uint32_t* end = nullptr;
  std::size_t size() const { return static_cast<std::size_t>(end - begin); }
};

class HistogramBuilder {
 public:
  // comm: the ranks whose histograms Build and BuildRoot sum.
  HistogramBuilder(const BinnedMatrix* matrix, std::uint32_t total_bins, int nthread,
                   rabit::Comm* comm)
      : matrix_(matrix), total_bins_(total_bins), nthread_(nthread), comm_(comm) {}

  // Fills outs[i] (resized to total_bins) with the local histogram of rows[i] (each row's
  // pair quantised on the way), then sums all of them over ranks in one allreduce. Returns
  // this rank's sum of the quantised pairs of all rows built (for the root: its statistics
  // before GlobalSum). All nodes of a level are built in one parallel region: the level's
  // rows are cut into one contiguous share per thread (ShareBounds); a node is zeroed and
  // written directly by the thread whose share holds its first row, and the parts of a node
  // cut between shares that other threads hold go through private buffers (at most one per
  // thread), added afterwards with the bins split between the threads.
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
  // when distributed; a single process derives siblings inside the split evaluation.
  void Subtract(const std::vector<const Histogram*>& parents,
                const std::vector<const Histogram*>& children,
                const std::vector<Histogram*>& outs) const;

  // Distributed: each level is reduce-scattered by feature owner instead of allreduced, so
  // only the owner's bins of the outputs hold sums (null, the default: allreduce). Not owned.
  void SetFeatureOwners(const FeatureOwners* owners) { owners_ = owners; }

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
  void AllreduceLevel(const std::vector<Histogram*>& outs);
  void ReduceScatterLevel(const std::vector<Histogram*>& outs);  // histogram_reduce_scatter.cc
  GradientPairInt BuildRootByColumns(const std::vector<GradientPair>& gpair,
                                     const GradientQuantiser& quantiser, Histogram* out);

  const BinnedMatrix* matrix_;
  std::uint32_t total_bins_;
  int nthread_;
  rabit::Comm* comm_;
  const FeatureOwners* owners_ = nullptr;
  std::vector<std::vector<Histogram>> partial_buffers_;  // per thread, kept between levels
  // The level's histograms back to back for the one allreduce; kept between levels and trees
  // (a fresh buffer per level is a level's worth of page faults, each level).
  std::vector<GradientPairInt> level_buffer_;
  std::vector<GradientPairInt> quantised_;  // every row's pair, for the column-wise root
};

}  // namespace treering::booster
