// The contract between the two passes of a loader. The counting pass measures each chunk
// (rows, entries, whether weights or qids occur); the loader then allocates the DMatrix arrays
// once at their exact size and gives each chunk a CsrCursor pointing at its own rows and
// entries, so the parsing pass writes straight into place with no copy and no lock.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

namespace treering::data::detail {

struct ChunkCounts {
  std::uint64_t rows = 0;
  std::uint64_t entries = 0;
  bool has_weight = false;
  bool has_qid = false;

  void Add(const ChunkCounts& other) {
    rows += other.rows;
    entries += other.entries;
    has_weight |= other.has_weight;
    has_qid |= other.has_qid;
  }
};

// A malformed line: where (byte offset in its file) and what. The loader turns the offset into
// "FILE:LINE:COL" only for the one failure it reports.
struct ParseFailure {
  std::uint64_t offset = 0;
  std::string message;
  bool internal = false;  // a treering bug rather than bad input (StatusCode::kInternal)
};

struct CsrCursor {
  // The chunk's slice of the DMatrix arrays. weight and qid are null when no row has one.
  std::uint64_t* row_end = nullptr;  // &row_ptr[first_row + 1]
  std::uint32_t* index = nullptr;    // &index[first_entry]
  float* value = nullptr;
  float* label = nullptr;
  float* weight = nullptr;
  std::uint64_t* qid = nullptr;
  std::uint64_t first_entry = 0;   // global position of index[0], for row_ptr
  std::uint64_t row_capacity = 0;  // from the counting pass
  std::uint64_t entry_capacity = 0;

  std::uint64_t rows = 0;  // filled so far
  std::uint64_t entries = 0;
  std::uint64_t num_col = 0;  // 1 + largest feature index written

  // The chunk's first row with label:weight and first row without (file offset of the label
  // and the label token), for the loader's all-or-none rule: a row missing its label reads
  // "3:1 4:2" as label 3 with weight 1, so a lone weighted row is more often a bug than intent.
  struct RowMark {
    bool seen = false;
    std::uint64_t offset = 0;
    std::string token;
  };
  RowMark first_weighted;
  RowMark first_unweighted;

  void EndRow() { row_end[rows++] = first_entry + entries; }
  void SetRowExtras(bool has_weight, float w, bool has_qid, std::uint64_t q) {
    if (weight != nullptr) weight[rows] = has_weight ? w : 1.0f;
    if (qid != nullptr) qid[rows] = has_qid ? q : 0;
  }
};

}  // namespace treering::data::detail
