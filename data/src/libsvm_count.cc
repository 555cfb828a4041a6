// The counting pass over LibSVM text: rows and entries per block without parsing a number.
#include <algorithm>
#include <cstring>

#include "libsvm_parser.h"  // declares CountLibsvm
#include "text_scan.h"

namespace treering::data::detail {
namespace {

// A line's row and the colons that are not index:value pairs (the label's weight, the qid).
// Every ':' before a comment belongs to a pair except those two.
struct LineShape {
  bool is_row = false;
  bool has_weight = false;
  bool has_qid = false;
};

LineShape ShapeOfLine(const char* p, const char* end) {
  LineShape shape;
  p = SkipBlanks(p, end);
  if (p == end || *p == '#') return shape;
  shape.is_row = true;
  const char* label_end = p;
  while (label_end != end && !IsBlank(*label_end) && *label_end != '#') ++label_end;
  shape.has_weight = std::memchr(p, ':', static_cast<std::size_t>(label_end - p)) != nullptr;
  const char* second = SkipBlanks(label_end, end);
  shape.has_qid = end - second >= 4 && std::memcmp(second, "qid:", 4) == 0;
  return shape;
}

std::uint64_t CountColons(const char* p, const char* end) {
  std::uint64_t colons = 0;
  while (p != end) {
    // A 16-bit counter per slice lets the compiler count 16 bytes per vector instruction.
    const char* slice_end = p + std::min<std::ptrdiff_t>(end - p, 65535);
    std::uint16_t slice = 0;
    for (; p != slice_end; ++p) slice += *p == ':';
    colons += slice;
  }
  return colons;
}

// Adds a line's row and entries given the colons on it (before any comment).
void CountLine(const char* p, const char* end, std::uint64_t colons, ChunkCounts* counts) {
  const LineShape shape = ShapeOfLine(p, end);
  if (!shape.is_row) return;
  counts->rows += 1;
  counts->entries += colons - shape.has_weight - shape.has_qid;
  counts->has_weight |= shape.has_weight;
  counts->has_qid |= shape.has_qid;
}

// Text with comments: colons are counted per line, up to the '#'.
void CountCommentedLibsvm(const char* p, const char* end, ChunkCounts* counts) {
  while (p < end) {
    const char* line_end = LineEnd(p, end);
    const void* hash = std::memchr(p, '#', static_cast<std::size_t>(line_end - p));
    const char* content_end = hash ? static_cast<const char*>(hash) : line_end;
    CountLine(p, content_end, CountColons(p, content_end), counts);
    p = line_end + 1;
  }
}

}  // namespace

void CountLibsvm(std::string_view text, ChunkCounts* counts) {
  const char* p = text.data();
  const char* end = p + text.size();
  ChunkCounts block;
  if (std::memchr(p, '#', text.size()) != nullptr) {
    CountCommentedLibsvm(p, end, &block);
  } else {
    // No comment in the block (the common case): one vectorised pass counts all colons, and
    // each line is only looked at for its label and qid.
    const std::uint64_t colons = CountColons(p, end);
    while (p < end) {
      const char* line_end = LineEnd(p, end);
      CountLine(p, line_end, 0, &block);
      p = line_end + 1;
    }
    block.entries += colons;  // after the per-line subtractions, which it covers
  }
  // A well-formed entry takes at least 4 bytes (" i:v"), so this bound only ever trims a count
  // inflated by stray colons (a line of "::::"), which the parsing pass rejects: it keeps the
  // allocation for any input within 2 bytes of entries per input byte.
  block.entries = std::min<std::uint64_t>(block.entries, text.size() / 4);
  counts->Add(block);
}

}  // namespace treering::data::detail
