// Loading LibSVM (and CSV) files into a DMatrix, sharded by rank for distributed training.
//
// URI forms:  path                      one file
//             path?format=libsvm        XGBoost's suffix (format must be libsvm or csv)
//             a.libsvm,b.libsvm         a list of files
//             dir/part-*.libsvm         a glob (sorted by name)
// With several files, parts are split by total bytes across the concatenation, so every row
// is read by exactly one part, whatever the number of parts.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "base/context.h"
#include "base/status.h"
#include "data/dmatrix.h"

namespace treering::data {

// How far a Load is (for a progress line): the pass (1 counts the rows, 2 parses them), the
// part's text bytes read in this pass of `total_bytes`, and the part's rows (0 until pass 1 is
// done).
struct LoadProgress {
  int pass = 1;
  std::uint64_t bytes = 0;
  std::uint64_t total_bytes = 0;
  std::uint64_t rows = 0;
};

struct LoadOptions {
  int part = 0;    // this reader's part (rank)
  int nparts = 1;  // number of parts (world size), 1..256 (more is allowed)
  // Called now and then (at most every `progress_interval_s`, from one parser thread at a
  // time) while the part is read; empty: never.
  std::function<void(const LoadProgress&)> progress;
  double progress_interval_s = 0.25;
  // Dense data (every row holds features 0 .. n-1) come back with an empty index and
  // implicit_index set, and the index never occupies memory while loading; other data load
  // as usual. For callers that never read `index` (or call RestoreDenseIndex).
  bool omit_dense_index = false;
  // The caller (the CLI's histogram training) never reads the values of a dense matrix, only
  // its bins: with omit_dense_index, a large dense part is read in slices whose values are
  // spilled by column to a private temporary directory (DMatrix::external, temporary) and
  // never held whole; the learner sketches and bins them column by column into memory.
  // docs/data.md, "Streamed load".
  bool stream_dense = false;
};

// Returns exactly the rows whose line starts in bytes [part*size/nparts, (part+1)*size/nparts)
// of the (concatenated) input. Errors name file, line and column, e.g.
//   "train.libsvm:1234:7: expected index:value, got 'x:1'"  (StatusCode::kInvalidInput).
// Parser threads: ctx.ThreadsFor(bytes of the part, 256 KiB per thread).
Result<DMatrix> Load(const std::string& uri, const LoadOptions& options = {},
                     const Context& ctx = {});

// What a Load did, for tools and benchmarks that report throughput.
struct LoadStats {
  std::uint64_t bytes = 0;  // bytes of text this part parsed (its rows' lines)
  int threads = 0;          // parser threads actually used (fewer for small inputs)
};

// Load, also filling *stats.
Result<DMatrix> Load(const std::string& uri, const LoadOptions& options, const Context& ctx,
                     LoadStats* stats);

}  // namespace treering::data
