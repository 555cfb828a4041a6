#include "matrix_layout.h"

#include <sys/mman.h>

#include <cstdint>

#include "base/parallel_for.h"

namespace treering::data::detail {
namespace {

// Sizes a fresh vector, first faulting its pages in from all threads: first-touch page faults
// are slow on virtual machines, and resize() alone would take them all on one thread.
// MADV_POPULATE_WRITE (Linux >= 5.14) prefaults without touching the bytes, so no element is
// written before resize() creates it. Transparent huge pages are not requested: with the usual
// defrag=madvise setting they made some loads stall in compaction (docs/benchmarks.md,
// "Measurements behind code comments").
template <typename T>
void ResizeFresh(std::vector<T>* v, int threads, std::size_t n) {
  constexpr std::uintptr_t kPage = 4096;
  constexpr std::uintptr_t kMinPrefaultPages =
      512;  // below 2 MiB, threads cost more than they save
  v->clear();
  v->shrink_to_fit();
  v->reserve(n);
  const auto begin = (reinterpret_cast<std::uintptr_t>(v->data()) + kPage - 1) & ~(kPage - 1);
  const std::uintptr_t end =
      (reinterpret_cast<std::uintptr_t>(v->data()) + n * sizeof(T)) & ~(kPage - 1);
  if (end > begin + kMinPrefaultPages * kPage) {
    const auto pages = static_cast<std::int64_t>((end - begin) / kPage);
    ParallelForBlocks(pages, threads, [&](int, std::int64_t first, std::int64_t last) {
      // Advice only: on an older kernel the call fails and resize() faults the pages instead.
      madvise(reinterpret_cast<void*>(begin + first * kPage), (last - first) * kPage,
              MADV_POPULATE_WRITE);
    });
  }
  v->resize(n);
}

ChunkCounts Total(const std::vector<ChunkCounts>& chunk_counts) {
  ChunkCounts total;
  for (const ChunkCounts& c : chunk_counts) total.Add(c);
  return total;
}

}  // namespace

std::vector<CsrCursor> LayOutMatrix(const std::vector<ChunkCounts>& chunk_counts, int threads,
                                    DMatrix* matrix, std::uint32_t* scratch_index) {
  const ChunkCounts total = Total(chunk_counts);
  ResizeFresh(&matrix->row_ptr, threads, total.rows + 1);
  ResizeFresh(&matrix->index, threads, scratch_index != nullptr ? 0 : total.entries);
  ResizeFresh(&matrix->value, threads, total.entries);
  ResizeFresh(&matrix->label, threads, total.rows);
  ResizeFresh(&matrix->weight, threads, total.has_weight ? total.rows : 0);
  ResizeFresh(&matrix->qid, threads, total.has_qid ? total.rows : 0);
  matrix->row_ptr[0] = 0;

  std::vector<CsrCursor> cursors(chunk_counts.size());
  std::uint64_t row = 0;
  std::uint64_t entry = 0;
  for (std::size_t i = 0; i < chunk_counts.size(); ++i) {
    CsrCursor& c = cursors[i];
    c.row_end = matrix->row_ptr.data() + row + 1;
    c.index = (scratch_index != nullptr ? scratch_index : matrix->index.data()) + entry;
    c.value = matrix->value.data() + entry;
    c.label = matrix->label.data() + row;
    c.weight = total.has_weight ? matrix->weight.data() + row : nullptr;
    c.qid = total.has_qid ? matrix->qid.data() + row : nullptr;
    c.first_entry = entry;
    c.row_capacity = chunk_counts[i].rows;
    c.entry_capacity = chunk_counts[i].entries;
    row += chunk_counts[i].rows;
    entry += chunk_counts[i].entries;
  }
  return cursors;
}

}  // namespace treering::data::detail
