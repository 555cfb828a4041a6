#include "matrix_layout.h"

#include <sys/mman.h>

#include <cstdint>

namespace treering::data::detail {
namespace {

// Sizes a fresh vector, asking the kernel for transparent huge pages first: first-touch page
// faults cost ~11 us per 4 KiB page on our VMs, and a 2 MiB page replaces 512 of them.
template <typename T>
void ResizeFresh(std::vector<T>* v, std::size_t n) {
  constexpr std::uintptr_t kHugePage = 2u << 20;
  v->clear();
  v->shrink_to_fit();
  v->reserve(n);
  const auto begin = reinterpret_cast<std::uintptr_t>(v->data());
  const std::uintptr_t end = begin + n * sizeof(T);
  const std::uintptr_t aligned = (begin + kHugePage - 1) & ~(kHugePage - 1);
  if (n * sizeof(T) >= 4 * kHugePage && aligned < end) {
    // Advice only: without THP support the kernel refuses and we use small pages.
    madvise(reinterpret_cast<void*>(aligned), end - aligned, MADV_HUGEPAGE);
  }
  v->resize(n);
}

ChunkCounts Total(const std::vector<ChunkCounts>& chunk_counts) {
  ChunkCounts total;
  for (const ChunkCounts& c : chunk_counts) total.Add(c);
  return total;
}

}  // namespace

std::vector<CsrCursor> LayOutMatrix(const std::vector<ChunkCounts>& chunk_counts,
                                    DMatrix* matrix) {
  const ChunkCounts total = Total(chunk_counts);
  ResizeFresh(&matrix->row_ptr, total.rows + 1);
  ResizeFresh(&matrix->index, total.entries);
  ResizeFresh(&matrix->value, total.entries);
  ResizeFresh(&matrix->label, total.rows);
  ResizeFresh(&matrix->weight, total.has_weight ? total.rows : 0);
  ResizeFresh(&matrix->qid, total.has_qid ? total.rows : 0);
  matrix->row_ptr[0] = 0;

  std::vector<CsrCursor> cursors(chunk_counts.size());
  std::uint64_t row = 0;
  std::uint64_t entry = 0;
  for (std::size_t i = 0; i < chunk_counts.size(); ++i) {
    CsrCursor& c = cursors[i];
    c.row_end = matrix->row_ptr.data() + row + 1;
    c.index = matrix->index.data() + entry;
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
