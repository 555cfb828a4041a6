#include "booster/tree/sketch/binned_matrix.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "base/parallel_for.h"
#include "booster/tree/sketch/dense_bin_search.h"
#include "booster/work_split.h"

namespace treering::booster {
namespace {

// DMatrix::values_disposable: the whole pages of values [*from, to) go back to the kernel once
// a thread binned them (in 1 MiB steps; a page shared with another thread's rows stays).
void ReleaseBinnedValues(const float* to, std::uintptr_t* from) {
  constexpr std::uintptr_t kPage = 4096, kStep = 1 << 20;
  const std::uintptr_t end = reinterpret_cast<std::uintptr_t>(to) & ~(kPage - 1);
  if (end < *from + kStep) return;
  madvise(reinterpret_cast<void*>(*from), end - *from, MADV_DONTNEED);  // advice only
  *from = end;
}

bool EveryRowHasEveryFeature(const data::DMatrix& dm, std::uint32_t num_features) {
  return dm.NumNonZero() == dm.NumRows() * std::size_t(num_features);
}

// Local bins of one dense row (values of features 0..nf-1 in order). Each feature's search is
// a chain of dependent loads (HistogramCuts::SearchBin, the same steps here); kSearchLanes
// searches step together so the chains overlap instead of running one after another
// (docs/benchmarks.md, "Measurements behind code comments").
constexpr std::uint32_t kSearchLanes = 8;

template <typename Bin>
void BinDenseRow(const HistogramCuts& cuts, const float* row, std::uint32_t nf, Bin* out) {
  const float* all_cuts = cuts.values.data();
  for (std::uint32_t f0 = 0; f0 < nf; f0 += kSearchLanes) {
    const std::uint32_t lanes = std::min(kSearchLanes, nf - f0);
    const float* base[kSearchLanes];
    std::uint32_t n[kSearchLanes];
    std::uint32_t longest = 0;
    for (std::uint32_t k = 0; k < lanes; ++k) {
      const std::uint32_t f = f0 + k;
      base[k] = all_cuts + cuts.ptrs[f];
      n[k] = cuts.ptrs[f + 1] - cuts.ptrs[f];
      longest = std::max(longest, n[k]);
    }
    for (; longest > 1; longest -= longest / 2) {
      for (std::uint32_t k = 0; k < lanes; ++k) {
        const std::uint32_t half = n[k] / 2;
        if (half == 0) continue;
        base[k] += half * static_cast<std::uint32_t>(base[k][half - 1] <= row[f0 + k]);
        n[k] -= half;
      }
    }
    for (std::uint32_t k = 0; k < lanes; ++k) {
      const std::uint32_t f = f0 + k;
      const float* first = all_cuts + cuts.ptrs[f];
      std::uint32_t bin =
          static_cast<std::uint32_t>(base[k] - first) + (*base[k] <= row[f0 + k] ? 1 : 0);
      bin = std::min(bin, cuts.ptrs[f + 1] - cuts.ptrs[f] - 1);
      out[f] = static_cast<Bin>(bin);
    }
  }
}

// Rows per tile of the column-major copy: a tile's row-major bins (64 x 28 bytes on higgs) stay
// in L1 while each feature's 64 bytes are copied to its column, one cache line.
constexpr std::int64_t kColumnTileRows = 64;

// Every row holds every feature, in order (indices strictly increase within a row). Writes
// the row-major bins and, when `columns` is given, the column-major copy in the same pass,
// tile by tile (a second pass would read the row-major array once per feature).
template <typename Bin>
void DenseBins(const data::DMatrix& dm, const HistogramCuts& cuts, int nthread, Bin* rows,
               Bin* columns) {
  const std::uint32_t nf = cuts.NumFeatures();
  const std::size_t n = dm.NumRows();
  const std::optional<DenseBinSearchAvx2> avx2 = DenseBinSearchAvx2::For(cuts);
  ParallelForBlocks(
      static_cast<std::int64_t>(n), ThreadsFor(dm.NumNonZero(), nthread),
      [&](int, std::int64_t begin, std::int64_t end) {
        std::vector<std::uint32_t> found(avx2 ? nf : 0);
        std::uintptr_t released =
            (reinterpret_cast<std::uintptr_t>(dm.value.data() + dm.row_ptr[begin]) + 4095) &
            ~std::uintptr_t{4095};
        for (std::int64_t tile = begin; tile < end; tile += kColumnTileRows) {
          const std::int64_t tile_end = std::min(end, tile + kColumnTileRows);
          for (std::int64_t row = tile; row < tile_end; ++row) {
            Bin* out = rows + std::size_t(row) * nf;
            const float* values = dm.value.data() + dm.row_ptr[row];
            if (avx2) {
              avx2->Row(values, found.data());
              for (std::uint32_t f = 0; f < nf; ++f) {
                out[f] = static_cast<Bin>(found[f]);
              }
            } else {
              BinDenseRow(cuts, values, nf, out);
            }
          }
          if (dm.values_disposable) {
            ReleaseBinnedValues(dm.value.data() + dm.row_ptr[tile_end], &released);
          }
          if (columns == nullptr) continue;
          // The tile's rows, still in L1, transposed: each feature's column
          // gets one run of consecutive bytes instead of a byte per row.
          for (std::uint32_t f = 0; f < nf; ++f) {
            Bin* column = columns + f * n;
            for (std::int64_t row = tile; row < tile_end; ++row) {
              column[row] = rows[std::size_t(row) * nf + f];
            }
          }
        }
      });
}

}  // namespace

BinnedMatrix BinnedMatrix::Build(const data::DMatrix& dm, const HistogramCuts& cuts, int nthread) {
  BinnedMatrix m;
  m.num_rows_ = dm.NumRows();
  m.num_features_ = cuts.NumFeatures();
  m.offsets_ = cuts.ptrs;
  m.source_ = &dm;
  std::uint32_t max_bins = 0;
  for (std::uint32_t f = 0; f < m.num_features_; ++f) {
    max_bins = std::max(max_bins, cuts.FeatureBins(f));
  }
  if (m.num_features_ > 0 && EveryRowHasEveryFeature(dm, m.num_features_)) {
    const std::size_t entries = m.num_rows_ * m.num_features_;
    if (max_bins <= 256) {
      m.layout_ = Layout::kDense8;
      m.dense8_.resize(entries);
      m.dense8_columns_.resize(entries);
      DenseBins<std::uint8_t>(dm, cuts, nthread, m.dense8_.data(), m.dense8_columns_.data());
    } else {
      m.layout_ = Layout::kDense16;
      m.dense16_.resize(entries);
      DenseBins<std::uint16_t>(dm, cuts, nthread, m.dense16_.data(), nullptr);
    }
    return m;
  }
  m.layout_ = Layout::kSparse;
  m.sparse_bins_.resize(dm.NumNonZero());
  // Blocks of consecutive rows per thread, so each thread's binned values are one range whose
  // pages go back to the kernel as it goes (values_disposable): bins and values are never both
  // resident (Fashion-MNIST: 94 MB of each).
  ParallelForBlocks(
      static_cast<std::int64_t>(dm.NumRows()), ThreadsFor(dm.NumNonZero(), nthread),
      [&](int, std::int64_t begin, std::int64_t end) {
        std::uintptr_t released =
            (reinterpret_cast<std::uintptr_t>(dm.value.data() + dm.row_ptr[begin]) + 4095) &
            ~std::uintptr_t{4095};
        constexpr std::int64_t kReleaseRows = 1024;
        for (std::int64_t block = begin; block < end; block += kReleaseRows) {
          const std::int64_t block_end = std::min(end, block + kReleaseRows);
          for (std::uint64_t j = dm.row_ptr[block]; j < dm.row_ptr[block_end]; ++j) {
            m.sparse_bins_[j] = cuts.SearchBin(dm.index[j], dm.value[j]);
          }
          if (dm.values_disposable) {
            ReleaseBinnedValues(dm.value.data() + dm.row_ptr[block_end], &released);
          }
        }
      });
  m.BuildColumns(dm, max_bins);
  m.BuildRowSlots(dm, max_bins, nthread);
  return m;
}

BinnedMatrix BinnedMatrix::Shaped(Layout layout, std::size_t rows, const HistogramCuts& cuts) {
  BinnedMatrix m;
  m.layout_ = layout;
  m.num_rows_ = rows;
  m.num_features_ = cuts.NumFeatures();
  m.offsets_ = cuts.ptrs;
  return m;
}

BinnedMatrix BinnedMatrix::FromPages(Layout layout, std::size_t rows, const HistogramCuts& cuts,
                                     Pages pages) {
  BinnedMatrix m = Shaped(layout, rows, cuts);
  m.pages_ = std::move(pages);
  return m;
}

BinnedMatrix BinnedMatrix::FromDense(Layout layout, std::size_t rows, const HistogramCuts& cuts,
                                     OwnedBins bins) {
  BinnedMatrix m = Shaped(layout, rows, cuts);
  m.dense8_ = std::move(bins.rows8);
  m.dense8_columns_ = std::move(bins.columns8);
  m.dense16_ = std::move(bins.rows16);
  return m;
}

namespace {

template <typename Bin>
void FillRowSlots(const data::DMatrix& dm, const std::vector<std::uint32_t>& offsets,
                  const std::vector<std::uint32_t>& global_bins, std::uint32_t nf, Bin missing,
                  int nthread, Bin* slots) {
  ParallelFor(dm.NumRows(), ThreadsFor(dm.NumRows() * std::size_t(nf), nthread),
              [&](std::size_t row) {
                Bin* out = slots + row * nf;
                std::fill(out, out + nf, missing);
                for (std::uint64_t j = dm.row_ptr[row]; j < dm.row_ptr[row + 1]; ++j) {
                  const std::uint32_t f = dm.index[j];
                  out[f] = static_cast<Bin>(global_bins[j] - offsets[f]);
                }
              });
}

}  // namespace

// Only when nearly full: a slot per absent value is a byte or two the row kernel walks past,
// so at Fashion-MNIST's 50 % fill it would cost more than the CSR it replaces.
void BinnedMatrix::BuildRowSlots(const data::DMatrix& dm, std::uint32_t widest, int nthread) {
  const std::size_t slots = num_rows_ * std::size_t(num_features_);
  if (slots == 0 || slots * 7 > dm.NumNonZero() * 8 || widest >= kMissingSlot16) return;
  if (widest < kMissingSlot8) {
    slots8_.resize(slots);
    FillRowSlots(dm, offsets_, sparse_bins_, num_features_, kMissingSlot8, nthread, slots8_.data());
  } else {
    slots16_.resize(slots);
    FillRowSlots(dm, offsets_, sparse_bins_, num_features_, kMissingSlot16, nthread,
                 slots16_.data());
  }
}

void BinnedMatrix::BuildColumns(const data::DMatrix& dm, std::uint32_t widest) {
  column_ptr_.assign(num_features_ + 1, 0);
  for (std::uint32_t f : dm.index) ++column_ptr_[f + 1];
  for (std::uint32_t f = 0; f < num_features_; ++f) column_ptr_[f + 1] += column_ptr_[f];
  column_rows_.resize(dm.NumNonZero());
  const auto fill_columns = [&](auto* bins) {
    using Bin = std::remove_pointer_t<decltype(bins)>;
    std::vector<std::uint64_t> fill(column_ptr_.begin(), column_ptr_.end() - 1);
    for (std::size_t row = 0; row < num_rows_; ++row) {
      for (std::uint64_t j = dm.row_ptr[row]; j < dm.row_ptr[row + 1]; ++j) {
        const std::uint32_t f = dm.index[j];
        column_rows_[fill[f]] = static_cast<std::uint32_t>(row);
        bins[fill[f]++] = static_cast<Bin>(sparse_bins_[j] - offsets_[f]);
      }
    }
  };
  if (widest <= 256) {
    column_bins8_.resize(dm.NumNonZero());
    fill_columns(column_bins8_.data());
  } else {
    column_bins_.resize(dm.NumNonZero());
    fill_columns(column_bins_.data());
  }
}

}  // namespace treering::booster
