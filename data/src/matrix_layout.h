// Between the two loading passes: turns per-chunk counts into one exactly sized DMatrix and a
// cursor per chunk pointing at that chunk's rows and entries.
#pragma once

#include <vector>

#include "csr_cursor.h"
#include "data/dmatrix.h"

namespace treering::data::detail {

// Allocates every array of *matrix at its final size (each allocation happens once: growing a
// vector would copy it and fault its pages in twice), faulting the pages in with `threads`
// threads, and returns one cursor per chunk.
// With `scratch_index` (total entries long) the ids go there instead of matrix->index, which
// stays empty (a dense load that omits the index, dense_index.h).
std::vector<CsrCursor> LayOutMatrix(const std::vector<ChunkCounts>& chunk_counts, int threads,
                                    DMatrix* matrix, std::uint32_t* scratch_index = nullptr);

}  // namespace treering::data::detail
