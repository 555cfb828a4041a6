#include "booster/binned_matrix.h"

#include "data/parallel_for.h"
#include "booster/work_split.h"

namespace treering::booster {
namespace {

bool EveryRowHasEveryFeature(const data::DMatrix& dm, std::uint32_t num_features) {
  return dm.NumNonZero() == dm.NumRows() * std::size_t(num_features);
}

template <typename Bin>
std::vector<Bin> DenseBins(const data::DMatrix& dm, const HistogramCuts& cuts, int nthread) {
  const std::uint32_t nf = cuts.NumFeatures();
  std::vector<Bin> bins(dm.NumRows() * nf);
  ParallelFor(dm.NumRows(), ThreadsFor(dm.NumNonZero(), nthread), [&](std::size_t row) {
    for (std::uint64_t j = dm.row_ptr[row]; j < dm.row_ptr[row + 1]; ++j) {
      const std::uint32_t f = dm.index[j];
      bins[row * nf + f] = static_cast<Bin>(cuts.SearchBin(f, dm.value[j]) - cuts.ptrs[f]);
    }
  });
  return bins;
}

}  // namespace

BinnedMatrix BinnedMatrix::Build(const data::DMatrix& dm, const HistogramCuts& cuts,
                                 int nthread) {
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
    if (max_bins <= 256) {
      m.layout_ = Layout::kDense8;
      m.dense8_ = DenseBins<std::uint8_t>(dm, cuts, nthread);
      m.dense8_columns_.resize(m.dense8_.size());
      const std::uint32_t nf = m.num_features_;
      ParallelFor(nf, ThreadsFor(m.dense8_.size(), nthread), [&](std::uint32_t f) {
        std::uint8_t* col = m.dense8_columns_.data() + std::size_t(f) * m.num_rows_;
        for (std::size_t row = 0; row < m.num_rows_; ++row) col[row] = m.dense8_[row * nf + f];
      });
    } else {
      m.layout_ = Layout::kDense16;
      m.dense16_ = DenseBins<std::uint16_t>(dm, cuts, nthread);
    }
    return m;
  }
  m.layout_ = Layout::kSparse;
  m.sparse_bins_.resize(dm.NumNonZero());
  ParallelFor(dm.NumRows(), ThreadsFor(dm.NumNonZero(), nthread), [&](std::size_t row) {
    for (std::uint64_t j = dm.row_ptr[row]; j < dm.row_ptr[row + 1]; ++j) {
      m.sparse_bins_[j] = cuts.SearchBin(dm.index[j], dm.value[j]);
    }
  });
  m.BuildColumns(dm);
  return m;
}

void BinnedMatrix::BuildColumns(const data::DMatrix& dm) {
  column_ptr_.assign(num_features_ + 1, 0);
  for (std::uint32_t f : dm.index) ++column_ptr_[f + 1];
  for (std::uint32_t f = 0; f < num_features_; ++f) column_ptr_[f + 1] += column_ptr_[f];
  column_rows_.resize(dm.NumNonZero());
  column_bins_.resize(dm.NumNonZero());
  std::vector<std::uint64_t> fill(column_ptr_.begin(), column_ptr_.end() - 1);
  for (std::size_t row = 0; row < num_rows_; ++row) {
    for (std::uint64_t j = dm.row_ptr[row]; j < dm.row_ptr[row + 1]; ++j) {
      const std::uint32_t f = dm.index[j];
      column_rows_[fill[f]] = static_cast<std::uint32_t>(row);
      column_bins_[fill[f]++] = static_cast<std::uint16_t>(sparse_bins_[j] - offsets_[f]);
    }
  }
}

}  // namespace treering::booster
