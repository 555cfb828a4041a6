// Sharding: which bytes of which files one part reads, cut into line-aligned chunks, one run
// of chunks per parser thread.
//
// The rule (the same as dmlc-core's InputSplit): over the concatenation of all files, part p of
// n owns the rows whose line starts in [p*total/n, (p+1)*total/n). Each file starts a line, so
// a row never spans two files. A thread's chunk covers the lines starting in its byte range,
// extended to the end of its last line.
#pragma once

#include <cstdint>
#include <vector>

#include "input_files.h"
#include "tracker/status.h"

namespace treering::data::detail {

struct Chunk {
  std::size_t file = 0;     // index into InputSpec::files
  std::uint64_t begin = 0;  // a line start in that file
  std::uint64_t end = 0;    // a line start or the file's end
  int thread = 0;           // the parser thread that reads it
};

struct ByteRange {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
};

// Part `part` of `nparts` of [0, total): [part*total/nparts, (part+1)*total/nparts).
ByteRange PartRange(std::uint64_t total, int part, int nparts);

// Threads worth starting for `bytes` of text: below ~256 KiB per thread they cost more than
// they save.
int ThreadsFor(std::uint64_t bytes, int max_threads);

// Chunks in (thread, file, offset) order, i.e. in row order. Empty chunks are left out.
Result<std::vector<Chunk>> PlanChunks(const InputSpec& input, ByteRange range, int threads);

}  // namespace treering::data::detail
