#include "chunk_plan.h"

#include <algorithm>

#include "opened_file.h"

namespace treering::data::detail {
namespace {

std::uint64_t Fraction(std::uint64_t total, std::uint64_t numerator, std::uint64_t denominator) {
  return static_cast<std::uint64_t>(static_cast<unsigned __int128>(total) * numerator /
                                    denominator);
}

// Adds the chunk of `file` holding the lines that start in the global byte range.
Status AddFileChunk(const SourceFile& source, std::size_t file_index, ByteRange global,
                    std::vector<Chunk>* chunks) {
  const std::uint64_t file_end = source.offset + source.size;
  if (global.end <= source.offset || global.begin >= file_end) return Status::Ok();
  const std::uint64_t local_begin = std::max(global.begin, source.offset) - source.offset;
  const std::uint64_t local_end = std::min(global.end, file_end) - source.offset;
  Result<OpenedFile> file = OpenedFile::Open(source.path, source.version);
  if (!file.ok()) return file.status();
  Result<std::uint64_t> begin = NextLineStart(*file, source.size, local_begin);
  if (!begin.ok()) return begin.status();
  Result<std::uint64_t> end = NextLineStart(*file, source.size, local_end);
  if (!end.ok()) return end.status();
  if (*begin < *end) chunks->push_back(Chunk{file_index, *begin, *end});
  return Status::Ok();
}

}  // namespace

ByteRange PartRange(std::uint64_t total, int part, int nparts) {
  return ByteRange{Fraction(total, part, nparts), Fraction(total, part + 1, nparts)};
}

int SlicesFor(std::uint64_t bytes, int threads) {
  if (threads <= 1) return 1;
  constexpr std::uint64_t kSlicesPerThread = 8;
  return static_cast<int>(
      std::clamp<std::uint64_t>(bytes / kMinBytesPerThread, threads, threads * kSlicesPerThread));
}

Result<std::vector<Chunk>> PlanChunks(const InputSpec& input, ByteRange range, int slices) {
  std::vector<Chunk> chunks;
  const std::uint64_t length = range.end - range.begin;
  for (int s = 0; s < slices; ++s) {
    const ByteRange slice{range.begin + Fraction(length, s, slices),
                          range.begin + Fraction(length, s + 1, slices)};
    for (std::size_t f = 0; f < input.files.size(); ++f) {
      if (Status status = AddFileChunk(input.files[f], f, slice, &chunks); !status.ok()) {
        return status;
      }
    }
  }
  return chunks;
}

}  // namespace treering::data::detail
