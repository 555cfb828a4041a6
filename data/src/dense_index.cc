#include "dense_index.h"

#include <sys/mman.h>

#include <algorithm>

namespace treering::data::detail {
namespace {

constexpr std::uintptr_t kPage = 4096;

// Row `r` (chunk-local) starts at this entry of the chunk's slice.
std::uint64_t RowStart(const CsrCursor& c, std::uint64_t r) {
  return r == 0 ? 0 : c.row_end[r - 1] - c.first_entry;
}

}  // namespace

bool CountsLookDense(const std::vector<ChunkCounts>& counts) {
  std::uint64_t row_len = 0;
  for (const ChunkCounts& c : counts) {
    if (c.rows == 0) continue;
    if (c.entries == 0 || c.entries % c.rows != 0) return false;
    if (row_len != 0 && c.entries / c.rows != row_len) return false;
    row_len = c.entries / c.rows;
  }
  return row_len != 0;
}

ScratchIndex::ScratchIndex(std::uint64_t entries) {
  bytes_ = std::max<std::size_t>(entries * sizeof(std::uint32_t), 1);
  void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p != MAP_FAILED) data_ = static_cast<std::uint32_t*>(p);
}

ScratchIndex::~ScratchIndex() {
  if (data_ != nullptr) munmap(data_, bytes_);
}

void DenseIndexTracker::AfterBlock(const CsrCursor& c) {
  if (!positional) return;
  for (; checked_rows < c.rows; ++checked_rows) {
    const std::uint64_t begin = RowStart(c, checked_rows);
    const std::uint64_t end = c.row_end[checked_rows] - c.first_entry;
    if (checked_rows == 0) row_len = end - begin;
    if (end - begin != row_len || row_len == 0) {
      positional = false;
      return;
    }
    for (std::uint64_t k = begin; k < end; ++k) {
      if (c.index[k] != k - begin) {
        positional = false;
        return;
      }
    }
  }
  // Whole pages of checked rows only: the page holding the next row's first id stays.
  const std::uint64_t done = c.rows == 0 ? 0 : c.row_end[c.rows - 1] - c.first_entry;
  const auto from =
      (reinterpret_cast<std::uintptr_t>(c.index + released) + kPage - 1) & ~(kPage - 1);
  const auto to = reinterpret_cast<std::uintptr_t>(c.index + done) & ~(kPage - 1);
  if (to > from) {
    // Advice only: where it fails the pages simply stay resident.
    madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
    released = (to - reinterpret_cast<std::uintptr_t>(c.index)) / sizeof(std::uint32_t);
  }
}

bool FinishDenseIndex(const std::vector<DenseIndexTracker>& trackers,
                      const std::vector<CsrCursor>& cursors, const ScratchIndex& scratch,
                      std::uint64_t entries, DMatrix* matrix) {
  bool dense = true;
  std::uint64_t row_len = 0;
  for (std::size_t i = 0; i < cursors.size(); ++i) {
    if (cursors[i].rows == 0) continue;
    if (!trackers[i].positional || (row_len != 0 && trackers[i].row_len != row_len)) {
      dense = false;
      break;
    }
    row_len = trackers[i].row_len;
  }
  if (dense && row_len != 0) {
    matrix->index.clear();
    matrix->implicit_index = true;
    matrix->num_col = row_len;
    return true;
  }
  // Not dense after all: the released ids read as zeros now; rows there were positional.
  for (std::size_t i = 0; i < cursors.size(); ++i) {
    const CsrCursor& c = cursors[i];
    for (std::uint64_t r = 0; r < c.rows && RowStart(c, r) < trackers[i].released; ++r) {
      const std::uint64_t begin = RowStart(c, r);
      const std::uint64_t end = c.row_end[r] - c.first_entry;
      for (std::uint64_t k = begin; k < end; ++k) {
        c.index[k] = static_cast<std::uint32_t>(k - begin);
      }
    }
  }
  matrix->index.assign(scratch.data(), scratch.data() + entries);
  return false;
}

}  // namespace treering::data::detail

namespace treering::data {

void RestoreDenseIndex(DMatrix* dm) {
  if (!dm->implicit_index) return;
  dm->index.resize(dm->value.size());
  const std::uint64_t n = dm->num_col;
  for (std::size_t k = 0; k < dm->index.size(); ++k) {
    dm->index[k] = static_cast<std::uint32_t>(k % n);
  }
  dm->implicit_index = false;
}

}  // namespace treering::data
