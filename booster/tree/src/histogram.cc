#include "booster/histogram.h"

#include <algorithm>

#include "data/parallel_for.h"
#include "rabit/rabit.h"
#include "booster/work_split.h"

namespace treering::booster {
namespace {

// Nodes with fewer rows per thread than this are built whole by one thread, several nodes in
// parallel; larger ones are split across all threads with private buffers.
constexpr std::size_t kRowsPerThreadForSplitting = 16384;

template <typename Bin>
void AccumulateDense(const Bin* bins, std::uint32_t nf, const std::uint32_t* offsets,
                     const GradientPairInt* gpair, const std::uint32_t* begin,
                     const std::uint32_t* end, GradientPairInt* hist) {
  for (const std::uint32_t* it = begin; it != end; ++it) {
    const std::uint32_t row = *it;
    const GradientPairInt g = gpair[row];
    const Bin* row_bins = bins + std::size_t(row) * nf;
    for (std::uint32_t f = 0; f < nf; ++f) hist[offsets[f] + row_bins[f]] += g;
  }
}

void AccumulateSparse(const std::uint64_t* row_ptr, const std::uint32_t* bins,
                      const GradientPairInt* gpair, const std::uint32_t* begin,
                      const std::uint32_t* end, GradientPairInt* hist) {
  for (const std::uint32_t* it = begin; it != end; ++it) {
    const std::uint32_t row = *it;
    const GradientPairInt g = gpair[row];
    for (std::uint64_t j = row_ptr[row]; j < row_ptr[row + 1]; ++j) hist[bins[j]] += g;
  }
}

}  // namespace

void HistogramBuilder::AccumulateRows(const std::vector<GradientPairInt>& gpair,
                                      const std::uint32_t* begin, const std::uint32_t* end,
                                      GradientPairInt* hist) const {
  const auto& m = *matrix_;
  const std::uint32_t* offsets = m.FeatureOffsets().data();
  switch (m.layout()) {
    case BinnedMatrix::Layout::kDense8:
      AccumulateDense(m.Dense8(), m.NumFeatures(), offsets, gpair.data(), begin, end, hist);
      break;
    case BinnedMatrix::Layout::kDense16:
      AccumulateDense(m.Dense16(), m.NumFeatures(), offsets, gpair.data(), begin, end, hist);
      break;
    case BinnedMatrix::Layout::kSparse:
      AccumulateSparse(m.RowPtr(), m.SparseBins(), gpair.data(), begin, end, hist);
      break;
  }
}

void HistogramBuilder::BuildLarge(const std::vector<GradientPairInt>& gpair, RowSpan rows,
                                  Histogram* out) {
  const int threads = ResolveThreads(nthread_);
  thread_buffers_.resize(threads);
  ParallelForBlocks(static_cast<std::int64_t>(rows.size()), threads,
                    [&](int tid, std::int64_t begin, std::int64_t end) {
                      GradientPairInt* hist = out->data();
                      if (tid > 0) {
                        thread_buffers_[tid].assign(total_bins_, GradientPairInt{});
                        hist = thread_buffers_[tid].data();
                      }
                      AccumulateRows(gpair, rows.begin + begin, rows.begin + end, hist);
                    });
  ParallelForBlocks(total_bins_, ThreadsFor(total_bins_, nthread_),
                    [&](int, std::int64_t begin, std::int64_t end) {
    for (int t = 1; t < threads; ++t) {
      for (std::int64_t b = begin; b < end; ++b) (*out)[b] += thread_buffers_[t][b];
    }
  });
}

void HistogramBuilder::Build(const std::vector<GradientPairInt>& gpair,
                             const std::vector<RowSpan>& rows,
                             const std::vector<Histogram*>& outs) {
  const std::size_t split_threshold = kRowsPerThreadForSplitting * ResolveThreads(nthread_);
  std::vector<std::size_t> small;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    outs[i]->assign(total_bins_, GradientPairInt{});
    if (rows[i].size() >= split_threshold && ResolveThreads(nthread_) > 1) {
      BuildLarge(gpair, rows[i], outs[i]);
    } else {
      small.push_back(i);
    }
  }
  std::size_t small_rows = 0;
  for (std::size_t i : small) small_rows += rows[i].size();
  const int threads = ThreadsFor(small_rows * std::max<std::size_t>(1, matrix_->NumFeatures() / 8), nthread_);
  ParallelFor(small.size(), threads, [&](std::size_t k) {
    const std::size_t i = small[k];
    AccumulateRows(gpair, rows[i].begin, rows[i].end, outs[i]->data());
  });
  AllreduceLevel(outs);
}

void HistogramBuilder::AllreduceLevel(const std::vector<Histogram*>& outs) {
  if (!rabit::IsDistributed() || outs.empty()) return;
  std::vector<GradientPairInt> level(outs.size() * std::size_t(total_bins_));
  for (std::size_t i = 0; i < outs.size(); ++i) {
    std::copy(outs[i]->begin(), outs[i]->end(), level.begin() + i * total_bins_);
  }
  static_assert(sizeof(GradientPairInt) == 2 * sizeof(std::int64_t));
  rabit::Allreduce<rabit::op::Sum>(reinterpret_cast<std::int64_t*>(level.data()),
                                   level.size() * 2);
  for (std::size_t i = 0; i < outs.size(); ++i) {
    std::copy_n(level.begin() + i * total_bins_, total_bins_, outs[i]->begin());
  }
}

void HistogramBuilder::Subtract(const Histogram& parent, const Histogram& child,
                                Histogram* out) const {
  out->resize(total_bins_);
  ParallelForBlocks(total_bins_, ThreadsFor(total_bins_, nthread_),
                    [&](int, std::int64_t begin, std::int64_t end) {
    for (std::int64_t b = begin; b < end; ++b) (*out)[b] = parent[b] - child[b];
  });
}

}  // namespace treering::booster
