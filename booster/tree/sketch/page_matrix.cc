#include "booster/tree/sketch/page_matrix.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <numeric>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/parallel_for.h"
#include "booster/tree/sketch/dense_bin_search.h"
#include "booster/tree/sketch/page_mapping.h"
#include "data/external_columns.h"

namespace treering::booster {
namespace {

Status PageError(const std::string& what, const std::string& path, int err) {
  return Status::InvalidInput(what + " cache file " + path + ": " + std::strerror(err));
}

Status WriteAt(int fd, const void* data, std::size_t bytes, std::uint64_t at,
               const std::string& path) {
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::pwrite(fd, p, bytes, static_cast<off_t>(at));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return PageError("cannot write", path, n < 0 ? errno : ENOSPC);
    p += n;
    at += static_cast<std::uint64_t>(n);
    bytes -= static_cast<std::size_t>(n);
  }
  return Status::Ok();
}

// Every rank learns whether any rank failed, so that none waits in a collective for a rank
// that returned.
Status AgreeOk(const Status& mine, rabit::Comm& comm) {
  std::uint8_t failed = mine.ok() ? 0 : 1;
  if (comm.IsDistributed()) comm.Allreduce<rabit::op::Max>(&failed, 1);
  if (!mine.ok()) return mine;
  if (failed != 0) return Status::InvalidInput("external memory: another rank failed");
  return Status::Ok();
}

// Bins rows [r0, r0 + n) of every column: by_column[f * n + i] and by_row[i * nf + f] are row
// r0 + i's local bin of f. The columns are read in parallel, then each row is searched whole,
// eight features at a time where the CPU has AVX2 (BinnedMatrix::Build's search, the same
// bins as HistogramCuts::SearchBin's).
template <typename Bin>
Status BinBlock(const data::ExternalColumns& cols, const HistogramCuts& cuts,
                const DenseBinSearchAvx2* avx2, std::uint64_t r0, std::uint64_t n, int nthread,
                std::vector<float>* values, Bin* by_column, Bin* by_row) {
  const std::uint32_t nf = cuts.NumFeatures();
  std::vector<Status> status(nf, Status::Ok());
  ParallelFor(nf, nthread, [&](std::size_t f) {
    status[f] = cols.ReadColumn(static_cast<std::uint32_t>(f), r0, n, values->data() + f * n);
  });
  for (const Status& s : status) {
    if (!s.ok()) return s;
  }
  const float* v = values->data();
  ParallelForBlocks(static_cast<std::int64_t>(n), nthread,
                    [&](int, std::int64_t begin, std::int64_t end) {
                      std::vector<float> row(nf);
                      std::vector<std::uint32_t> bins(nf);
                      for (std::int64_t i = begin; i < end; ++i) {
                        for (std::uint32_t f = 0; f < nf; ++f) row[f] = v[f * n + i];
                        if (avx2 != nullptr) {
                          avx2->Row(row.data(), bins.data());
                        } else {
                          for (std::uint32_t f = 0; f < nf; ++f) {
                            bins[f] = cuts.SearchBin(f, row[f]) - cuts.ptrs[f];
                          }
                        }
                        for (std::uint32_t f = 0; f < nf; ++f) {
                          by_row[i * nf + f] = static_cast<Bin>(bins[f]);
                          by_column[f * n + i] = static_cast<Bin>(bins[f]);
                        }
                      }
                    });
  return Status::Ok();
}

// Where a block of bins goes: page files (pwrite) or the in-memory matrix's arrays.
template <typename Bin>
struct FileSink {
  const std::string& rows_path;
  int rows_fd;
  const std::string& columns_path;
  int columns_fd;  // -1: no column-major copy (16-bit bins)
  bool HasColumns() const { return columns_fd >= 0; }
  Status Columns(const Bin* bins, std::size_t n, std::uint64_t at) {
    return WriteAt(columns_fd, bins, n * sizeof(Bin), at * sizeof(Bin), columns_path);
  }
  Status Rows(const Bin* bins, std::size_t n, std::uint64_t at) {
    return WriteAt(rows_fd, bins, n * sizeof(Bin), at * sizeof(Bin), rows_path);
  }
};

template <typename Bin>
struct MemorySink {
  Bin* rows;
  Bin* columns;  // null: no column-major copy
  bool HasColumns() const { return columns != nullptr; }
  Status Columns(const Bin* bins, std::size_t n, std::uint64_t at) {
    std::memcpy(columns + at, bins, n * sizeof(Bin));
    return Status::Ok();
  }
  Status Rows(const Bin* bins, std::size_t n, std::uint64_t at) {
    std::memcpy(rows + at, bins, n * sizeof(Bin));
    return Status::Ok();
  }
};

// Bins the spilled columns block by block into `sink`: row-major, and column-major too when
// the sink keeps that copy (8-bit bins).
template <typename Bin, typename Sink>
Status WriteBins(const data::ExternalColumns& cols, const HistogramCuts& cuts, int nthread,
                 Sink sink) {
  const std::uint32_t nf = cuts.NumFeatures();
  const std::uint64_t rows = cols.rows();
  // Rows per block: ~4 MiB of floats, whatever the width (with the two bin copies, the
  // binning pass holds ~6 MiB besides the labels).
  const std::uint64_t block = std::max<std::uint64_t>(1, (std::uint64_t{4} << 20) / (4 * nf));
  std::vector<float> values(block * nf);
  std::vector<Bin> by_column(block * nf), by_row(block * nf);
  const std::optional<DenseBinSearchAvx2> avx2 = DenseBinSearchAvx2::For(cuts);
  for (std::uint64_t r0 = 0; r0 < rows; r0 += block) {
    const std::uint64_t n = std::min(block, rows - r0);
    if (Status s = BinBlock(cols, cuts, avx2 ? &*avx2 : nullptr, r0, n, nthread, &values,
                            by_column.data(), by_row.data());
        !s.ok()) {
      return s;
    }
    if (sink.HasColumns()) {
      for (std::uint32_t f = 0; f < nf; ++f) {
        if (Status s = sink.Columns(by_column.data() + f * n, n, std::uint64_t(f) * rows + r0);
            !s.ok()) {
          return s;
        }
      }
    }
    if (Status s = sink.Rows(by_row.data(), n * nf, r0 * nf); !s.ok()) return s;
  }
  return Status::Ok();
}

// Whether every feature's bins fit one byte (the 8-bit layouts), for the in-memory and the
// paged matrix alike.
bool FitsOneByte(const HistogramCuts& cuts) {
  std::uint32_t max_bins = 0;
  for (std::uint32_t f = 0; f < cuts.NumFeatures(); ++f) {
    max_bins = std::max(max_bins, cuts.FeatureBins(f));
  }
  return max_bins <= 256;
}

}  // namespace

Result<bool> ExternalTraining(const data::DMatrix& train, rabit::Comm& comm) {
  std::uint8_t flags[2] = {std::uint8_t(train.external ? 1 : 0),
                           std::uint8_t(!train.external && train.NumRows() > 0 ? 1 : 0)};
  if (comm.IsDistributed()) comm.Allreduce<rabit::op::Max>(flags, 2);
  if (flags[0] != 0 && flags[1] != 0) {
    return Status::InvalidInput(
        "external memory: some rank's part of the training data is not dense and was loaded "
        "in memory; the ranks must all page (dense data) or all load in memory");
  }
  return flags[0] != 0;
}

Result<HistogramCuts> BuildCutsFromColumns(const data::DMatrix& train, std::uint32_t num_feature,
                                           int max_bin, int nthread, rabit::Comm& comm) {
  const data::ExternalColumns* cols = train.external.get();
  Status mine = Status::Ok();
  if (cols != nullptr && cols->cols() != num_feature) {
    mine = Status::InvalidInput("external memory: the model has " + std::to_string(num_feature) +
                                " features, the data in " + cols->prefix() + " " +
                                std::to_string(cols->cols()));
  }
  if (Status s = AgreeOk(mine, comm); !s.ok()) return s;
  // A few features' matrix (row-major, dense): their columns' values with the rows' weights
  // (the weighted sketch reads the ids, so weighted rows carry them). Each feature's sketch
  // is its own, so any grouping gives the same cuts; on one process a group has a column per
  // thread (the sketch sorts one column per thread), while the ranks of a distributed run go
  // one column at a time, since their thread counts may differ and BuildCuts is collective.
  const std::uint64_t rows = cols != nullptr ? cols->rows() : 0;
  const std::uint32_t group =
      comm.IsDistributed()
          ? 1
          : std::clamp<std::uint32_t>(static_cast<std::uint32_t>(ResolveThreads(nthread)), 1,
                                      std::max<std::uint32_t>(num_feature, 1));
  std::vector<float> column;
  HistogramCuts cuts;
  for (std::uint32_t f0 = 0; f0 < num_feature; f0 += group) {
    const std::uint32_t k = std::min(group, num_feature - f0);
    data::DMatrix some;
    some.num_col = k;
    some.row_ptr.resize(rows + 1);
    for (std::uint64_t r = 0; r <= rows; ++r) some.row_ptr[r] = r * k;
    some.weight = train.weight;
    some.implicit_index = some.weight.empty();
    if (!some.implicit_index) {
      some.index.resize(rows * k);
      for (std::uint64_t i = 0; i < rows * k; ++i) some.index[i] = std::uint32_t(i % k);
    }
    some.value.resize(rows * k);
    Status read = Status::Ok();
    column.resize(k == 1 ? 0 : rows);
    for (std::uint32_t j = 0; j < k && read.ok() && rows > 0; ++j) {
      if (k == 1) {
        read = cols->ReadColumn(f0, 0, rows, some.value.data());
        break;
      }
      read = cols->ReadColumn(f0 + j, 0, rows, column.data());
      for (std::uint64_t r = 0; r < rows; ++r) some.value[r * k + j] = column[r];
    }
    if (Status s = AgreeOk(read, comm); !s.ok()) return s;
    const HistogramCuts c = BuildCuts(some, k, max_bin, nthread, comm);
    for (std::uint32_t j = 0; j < k; ++j) {
      cuts.values.insert(cuts.values.end(), c.values.begin() + c.ptrs[j],
                         c.values.begin() + c.ptrs[j + 1]);
      cuts.min_vals.push_back(c.min_vals[j]);
      cuts.ptrs.push_back(static_cast<std::uint32_t>(cuts.values.size()));
    }
  }
  return cuts;
}

Result<BinnedMatrix> BuildBinnedFromColumns(const data::DMatrix& train, const HistogramCuts& cuts,
                                            int nthread) {
  data::ExternalColumns* cols = train.external.get();
  const bool narrow = FitsOneByte(cuts);
  const auto layout = narrow ? BinnedMatrix::Layout::kDense8 : BinnedMatrix::Layout::kDense16;
  const std::size_t rows = cols != nullptr ? cols->rows() : 0;
  const std::size_t entries = rows * cuts.NumFeatures();
  BinnedMatrix::OwnedBins bins;
  Status written = Status::Ok();
  if (narrow) {
    bins.rows8.resize(entries);
    bins.columns8.resize(entries);
    if (rows > 0) {
      written = WriteBins<std::uint8_t>(
          *cols, cuts, nthread, MemorySink<std::uint8_t>{bins.rows8.data(), bins.columns8.data()});
    }
  } else {
    bins.rows16.resize(entries);
    if (rows > 0) {
      written = WriteBins<std::uint16_t>(*cols, cuts, nthread,
                                         MemorySink<std::uint16_t>{bins.rows16.data(), nullptr});
    }
  }
  if (cols != nullptr) cols->RemoveColumns();  // the bins hold all that training reads
  if (!written.ok()) return written;
  return BinnedMatrix::FromDense(layout, rows, cuts, std::move(bins));
}

Result<BinnedMatrix> BuildPagedMatrix(const data::DMatrix& train, const HistogramCuts& cuts,
                                      const TreeParam& param, int nthread) {
  data::ExternalColumns* cols = train.external.get();
  const bool narrow = FitsOneByte(cuts);
  const auto layout = narrow ? BinnedMatrix::Layout::kDense8 : BinnedMatrix::Layout::kDense16;
  if (cols == nullptr || cols->rows() == 0) {
    return BinnedMatrix::FromPages(layout, 0, cuts, {});
  }
  const std::string rows_path = cols->prefix() + ".rows.page";
  const std::string columns_path = cols->prefix() + ".columns.page";
  const int rows_fd = ::open(rows_path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (rows_fd < 0) return PageError("cannot create", rows_path, errno);
  cols->AdoptFile(rows_path);
  int columns_fd = -1;
  if (narrow) {
    columns_fd = ::open(columns_path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (columns_fd < 0) {
      ::close(rows_fd);
      return PageError("cannot create", columns_path, errno);
    }
    cols->AdoptFile(columns_path);
  }
  Status written = narrow
                       ? WriteBins<std::uint8_t>(
                             *cols, cuts, nthread,
                             FileSink<std::uint8_t>{rows_path, rows_fd, columns_path, columns_fd})
                       : WriteBins<std::uint16_t>(
                             *cols, cuts, nthread,
                             FileSink<std::uint16_t>{rows_path, rows_fd, columns_path, columns_fd});
  cols->RemoveColumns();  // the pages hold all that training reads
  const std::size_t bin_bytes = narrow ? 1 : 2;
  const std::size_t bytes = cols->rows() * cuts.NumFeatures() * bin_bytes;
  auto mapping = std::make_shared<PageMapping>();
  if (written.ok()) written = mapping->Map(rows_fd, rows_path, bytes);
  if (written.ok() && narrow) written = mapping->Map(columns_fd, columns_path, bytes);
  ::close(rows_fd);
  if (columns_fd >= 0) ::close(columns_fd);
  if (!written.ok()) {
    ::unlink(rows_path.c_str());
    if (narrow) ::unlink(columns_path.c_str());
    return written;
  }
  mapping->KeepUnder(std::uint64_t(param.max_memory) << 20);
  BinnedMatrix::Pages pages;
  if (narrow) {
    pages.rows8 = static_cast<const std::uint8_t*>(mapping->region(0));
    pages.columns8 = static_cast<const std::uint8_t*>(mapping->region(1));
  } else {
    pages.rows16 = static_cast<const std::uint16_t*>(mapping->region(0));
  }
  pages.owner = mapping;
  return BinnedMatrix::FromPages(layout, cols->rows(), cuts, std::move(pages));
}

}  // namespace treering::booster
