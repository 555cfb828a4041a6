// BinnedMatrix: the training rows with every value replaced by its histogram bin, built once
// per training set. Dense data (every row has every feature, e.g. higgs) is stored row-major
// with one local bin per feature (uint8 when max_bin <= 256, else uint16); sparse data keeps
// the DMatrix's CSR structure with one global bin per entry (missing = absent).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "booster/tree/sketch/hist_cuts.h"
#include "data/dmatrix.h"

namespace treering::booster {

// Leaves new elements uninitialised (resize does not zero-fill): the bin arrays are written
// in full by the threads that build them, so the pages are first touched there, in parallel,
// and not once more by a single-threaded memset.
template <typename T>
struct UninitialisedAllocator : std::allocator<T> {
  template <typename U>
  struct rebind {
    using other = UninitialisedAllocator<U>;
  };
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    if constexpr (sizeof...(Args) == 0) {
      ::new (static_cast<void*>(p)) U;
    } else {
      ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
  }
};

template <typename T>
using BinVector = std::vector<T, UninitialisedAllocator<T>>;

class BinnedMatrix {
 public:
  enum class Layout { kDense8, kDense16, kSparse };

  // `dm` must outlive the matrix when the layout is sparse (its row_ptr is used; its index and
  // values are not read after Build).
  static BinnedMatrix Build(const data::DMatrix& dm, const HistogramCuts& cuts, int nthread);

  // External memory (booster/tree/sketch/page_matrix.h): dense bins in mapped page files that
  // `owner` keeps mapped. rows16 for kDense16; rows8 and columns8 for kDense8.
  struct Pages {
    const std::uint8_t* rows8 = nullptr;
    const std::uint8_t* columns8 = nullptr;
    const std::uint16_t* rows16 = nullptr;
    std::shared_ptr<const void> owner;
  };
  static BinnedMatrix FromPages(Layout layout, std::size_t rows, const HistogramCuts& cuts,
                                Pages pages);
  bool Paged() const { return pages_.owner != nullptr; }
  // Dense bins made elsewhere into owned memory, as Build's (the streamed in-memory load,
  // page_matrix.h): rows16 for kDense16; rows8 and columns8 for kDense8.
  struct OwnedBins {
    BinVector<std::uint8_t> rows8;
    BinVector<std::uint8_t> columns8;
    BinVector<std::uint16_t> rows16;
  };
  static BinnedMatrix FromDense(Layout layout, std::size_t rows, const HistogramCuts& cuts,
                                OwnedBins bins);

  Layout layout() const { return layout_; }
  std::size_t NumRows() const { return num_rows_; }
  std::uint32_t NumFeatures() const { return num_features_; }
  // Stored entries per row on average (the cost of adding one row to a histogram).
  std::size_t EntriesPerRow() const {
    if (layout_ != Layout::kSparse) return num_features_;
    return num_rows_ == 0 ? 0 : sparse_bins_.size() / num_rows_;
  }
  const std::vector<std::uint32_t>& FeatureOffsets() const { return offsets_; }
  const std::uint8_t* Dense8() const { return Paged() ? pages_.rows8 : dense8_.data(); }
  // Dense8 layout only: feature f's bins of all rows (column-major copy). Partitioning reads
  // one feature of a node's ascending rows, which is local here and scattered row-major.
  const std::uint8_t* Dense8Column(std::uint32_t f) const {
    return (Paged() ? pages_.columns8 : dense8_columns_.data()) + std::size_t(f) * num_rows_;
  }
  const std::uint16_t* Dense16() const { return Paged() ? pages_.rows16 : dense16_.data(); }
  const std::uint64_t* RowPtr() const { return source_->row_ptr.data(); }
  const std::uint32_t* SparseBins() const { return sparse_bins_.data(); }

  // Sparse layout, nearly full (every row holds >= 7/8 of the features on average, e.g. the
  // ranking set's 49 of 50): a row-major copy with one slot per (row, feature) holding the
  // local bin or kMissingSlot8/16, for the histogram's row kernel. Slots are uint8 when every
  // feature has < 255 bins, else uint16; both null when the data is sparser (or dense).
  // Why: a row's slots are contiguous and need no row_ptr lookup, so a scattered deep node's
  // rows cost like dense rows (treering-hist-bench, ranking set, depths 1-8: 4.7 ns per entry
  // through the CSR, 1.8 ns for the same rows stored dense).
  static constexpr std::uint8_t kMissingSlot8 = 0xFF;
  static constexpr std::uint16_t kMissingSlot16 = 0xFFFF;
  const std::uint8_t* RowSlots8() const { return slots8_.empty() ? nullptr : slots8_.data(); }
  const std::uint16_t* RowSlots16() const { return slots16_.empty() ? nullptr : slots16_.data(); }

  // Sparse layout only: feature f's entries as (row, local bin), rows ascending. Partitioning
  // a node walks the split feature's column instead of searching every row. The local bins
  // take one byte when every feature has <= 256 bins, else two (WithBins hands them typed).
  struct Column {
    const std::uint32_t* rows;
    const std::uint8_t* bins8;    // null when the bins are two bytes
    const std::uint16_t* bins16;  // null when they are one byte
    std::size_t size;
    // fn(bins) with bins a const std::uint8_t* or const std::uint16_t*, one call per column.
    template <typename Fn>
    void WithBins(Fn&& fn) const {
      if (bins8 != nullptr) {
        fn(bins8);
      } else {
        fn(bins16);
      }
    }
  };
  Column FeatureColumn(std::uint32_t f) const {
    const std::uint64_t b = column_ptr_[f], e = column_ptr_[f + 1];
    const bool narrow = !column_bins8_.empty() || column_bins_.empty();
    return {column_rows_.data() + b, narrow ? column_bins8_.data() + b : nullptr,
            narrow ? nullptr : column_bins_.data() + b, static_cast<std::size_t>(e - b)};
  }

  // Bin of (row, feature) counted from the feature's first bin; -1 when the value is missing.
  int LocalBin(std::size_t row, std::uint32_t feature) const {
    switch (layout_) {
      case Layout::kDense8:
        return Dense8()[row * num_features_ + feature];
      case Layout::kDense16:
        return Dense16()[row * num_features_ + feature];
      case Layout::kSparse:
        break;
    }
    // Branch-free lower_bound over the row's global bins for the feature's first bin: a row's
    // feature ids rise and feature f's bins are [offsets[f], offsets[f+1]), so its global bins
    // rise too and stand in for the ids (which the training setup frees, train_memory.h).
    const std::uint64_t first = source_->row_ptr[row];
    std::uint64_t n = source_->row_ptr[row + 1] - first;
    if (n == 0) return -1;
    const std::uint32_t lo = offsets_[feature];
    const std::uint32_t* base = sparse_bins_.data() + first;
    while (n > 1) {
      const std::uint64_t half = n / 2;
      base += half * static_cast<std::uint64_t>(base[half - 1] < lo);
      n -= half;
    }
    if (*base < lo || *base >= offsets_[feature + 1]) return -1;
    return static_cast<int>(*base - lo);
  }

 private:
  // A matrix of `layout` with the cuts' shape and no bins yet (FromPages, FromDense).
  static BinnedMatrix Shaped(Layout layout, std::size_t rows, const HistogramCuts& cuts);
  void BuildColumns(const data::DMatrix& dm, std::uint32_t widest);
  void BuildRowSlots(const data::DMatrix& dm, std::uint32_t widest, int nthread);

  Layout layout_ = Layout::kSparse;
  std::size_t num_rows_ = 0;
  std::uint32_t num_features_ = 0;
  std::vector<std::uint32_t> offsets_;  // = cuts.ptrs
  BinVector<std::uint8_t> dense8_;
  BinVector<std::uint8_t> dense8_columns_;
  BinVector<std::uint16_t> dense16_;
  std::vector<std::uint32_t> sparse_bins_;
  BinVector<std::uint8_t> slots8_;  // RowSlots8 / RowSlots16: nearly full sparse data only
  BinVector<std::uint16_t> slots16_;
  std::vector<std::uint64_t> column_ptr_;  // CSC copy of the sparse layout
  std::vector<std::uint32_t> column_rows_;
  std::vector<std::uint8_t> column_bins8_;  // local bins, every feature <= 256 bins
  std::vector<std::uint16_t> column_bins_;  // local bins otherwise
  const data::DMatrix* source_ = nullptr;
  Pages pages_;
};

}  // namespace treering::booster
