// Dense loads without the index array. A dense row (features 0 .. n-1, in order) needs no
// stored feature ids: a loader asked to omit them (LoadOptions::omit_dense_index), when the
// counting pass finds the same number of entries in every row of every chunk, parses the ids
// into a scratch mapping, checks them after every block of lines and hands the checked pages
// back to the kernel, so the ids never occupy more than a few pages per parser thread. If the
// data turn out not to be dense after all, the handed-back ids are written again from their
// positions and copied into the matrix: the ordinary CSR matrix.
#pragma once

#include <cstdint>
#include <vector>

#include "csr_cursor.h"
#include "data/dmatrix.h"

namespace treering::data::detail {

// True when every non-empty chunk holds rows * n entries for one n >= 1 (needed for dense).
bool CountsLookDense(const std::vector<ChunkCounts>& counts);

// An anonymous mapping for the ids: untouched pages cost no memory.
class ScratchIndex {
 public:
  explicit ScratchIndex(std::uint64_t entries);
  ~ScratchIndex();
  ScratchIndex(const ScratchIndex&) = delete;
  ScratchIndex& operator=(const ScratchIndex&) = delete;
  std::uint32_t* data() const { return data_; }  // null when the mapping failed

 private:
  std::uint32_t* data_ = nullptr;
  std::size_t bytes_ = 0;
};

// One chunk's view of whether its rows so far are dense, and how much of its index slice was
// released. Touched only by the thread parsing the chunk.
struct DenseIndexTracker {
  bool positional = true;     // every checked row holds features 0 .. row_len-1
  std::uint64_t row_len = 0;  // entries of the chunk's first row
  std::uint64_t checked_rows = 0;
  std::uint64_t released = 0;  // entries [0, released) of the chunk's slice were released

  // Checks the rows parsed since the last call and releases the whole pages of their ids.
  void AfterBlock(const CsrCursor& cursor);
};

// After the parsing pass: true (implicit_index set) when every row of every chunk holds the
// same features 0 .. n-1 (n >= 1); else restores the released ids and copies the scratch ids
// into matrix->index.
bool FinishDenseIndex(const std::vector<DenseIndexTracker>& trackers,
                      const std::vector<CsrCursor>& cursors, const ScratchIndex& scratch,
                      std::uint64_t entries, DMatrix* matrix);

}  // namespace treering::data::detail
