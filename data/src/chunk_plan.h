// Sharding: which bytes of which files one part reads, cut into line-aligned chunks that the
// parser threads share out.
//
// The rule (the same as dmlc-core's InputSplit): over the concatenation of all files, part p of
// n owns the rows whose line starts in [p*total/n, (p+1)*total/n). Each file starts a line, so
// a row never spans two files. The part is cut the same way into slices, and a slice's chunk
// covers the lines starting in it, extended to the end of its last line.
#pragma once

#include <cstdint>
#include <vector>

#include "base/context.h"
#include "base/status.h"
#include "input_files.h"

namespace treering::data::detail {

struct Chunk {
  std::size_t file = 0;     // index into InputSpec::files
  std::uint64_t begin = 0;  // a line start in that file
  std::uint64_t end = 0;    // a line start or the file's end
};

struct ByteRange {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
};

// Part `part` of `nparts` of [0, total): [part*total/nparts, (part+1)*total/nparts).
ByteRange PartRange(std::uint64_t total, int part, int nparts);

// The loader's grain for the one rule (treering::ThreadsFor, base/context.h): threads get at
// least 256 KiB of text each; below that they cost more than they save.
inline constexpr std::uint64_t kMinBytesPerThread = 256ull * 1024;
inline constexpr WorkGrain kParseGrain{0, kMinBytesPerThread};

// Slices to cut `bytes` into for `threads` threads: several per thread (each >= 256 KiB), so
// a thread that the OS descheduled on a busy machine does not hold up the others.
int SlicesFor(std::uint64_t bytes, int threads);

// The chunks of `slices` equal slices of the range, in row order. Empty chunks are left out.
Result<std::vector<Chunk>> PlanChunks(const InputSpec& input, ByteRange range, int slices);

}  // namespace treering::data::detail
