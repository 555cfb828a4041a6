// Load: the two-pass parallel loader. Pass 1 counts rows and entries per line-aligned chunk
// (a remote chunk's server counts it when it can, so its bytes are fetched once);
// the DMatrix is then allocated once at its exact size; pass 2 parses each chunk straight into
// its place. Both passes read the files in bounded blocks per thread, so peak memory is the
// DMatrix plus one block per thread, whatever the file size.
#include "data/load.h"

#include <atomic>
#include <chrono>
#include <optional>
#include <vector>

#include "base/parallel_for.h"
#include "chunk_plan.h"
#include "csv_parser.h"
#include "dense_index.h"
#include "error_location.h"
#include "external_load.h"
#include "input_files.h"
#include "libsvm_parser.h"
#include "matrix_layout.h"
#include "opened_file.h"
#include "weight_rule.h"

namespace treering::data {
namespace detail {
namespace {

constexpr std::size_t kBlockBytes = 1 << 20;

// One per parser thread: its read buffer, its format's parser state, and the file it read
// last, kept open across chunks and passes (a remote file keeps its keep-alive connection).
struct ThreadState {
  std::vector<char> buffer = std::vector<char>(kBlockBytes);
  LibsvmParser libsvm;
  std::optional<OpenedFile> file;
  std::size_t file_index = 0;
  ThreadState(int index_base, bool xgboost_floats) : libsvm(index_base, xgboost_floats) {}

  Status Open(const InputSpec& input, std::size_t index) {
    if (file && file_index == index) return Status::Ok();
    file.reset();
    const SourceFile& source = input.files[index];
    Result<OpenedFile> opened = OpenedFile::Open(source.path, source.version);
    if (!opened.ok()) return opened.status();
    file.emplace(std::move(*opened));
    file_index = index;
    return Status::Ok();
  }
};

// What went wrong in one chunk: an I/O status, or a parse failure at an offset.
struct ChunkOutcome {
  Status io;
  bool parse_failed = false;
  ParseFailure failure;
};

class TwoPassLoader {
 public:
  TwoPassLoader(const InputSpec& input, std::vector<Chunk> chunks, int threads,
                const LoadOptions& options)
      : input_(input),
        chunks_(std::move(chunks)),
        threads_(threads),
        outcomes_(chunks_.size()),
        options_(options) {
    for (int t = 0; t < threads; ++t) states_.emplace_back(input.index_base, input.xgboost_floats);
    for (const Chunk& c : chunks_) total_bytes_ += c.end - c.begin;
  }
  void set_rows(std::uint64_t rows) { rows_ = rows; }

  Status Count(std::vector<ChunkCounts>* counts);
  // With `dense`, one tracker per chunk checks each parsed block (dense_index.h).
  Status Fill(std::vector<CsrCursor>* cursors, std::vector<DenseIndexTracker>* dense = nullptr);
  Status CheckWeights(const std::vector<CsrCursor>& cursors) const {
    return CheckWeightsAllOrNone(input_, chunks_, cursors);
  }

 private:
  template <typename WithoutReading, typename OnText>
  void ForEachChunk(WithoutReading&& without_reading, OnText&& on_text);
  Status FirstError() const;
  // Counts `bytes` read and calls options_.progress when its interval passed (one caller at
  // a time: a thread that finds another reporting skips).
  void Advance(std::uint64_t bytes);

  const InputSpec& input_;
  std::vector<Chunk> chunks_;
  int threads_;
  std::vector<ThreadState> states_;
  std::vector<ChunkOutcome> outcomes_;
  const LoadOptions& options_;
  int pass_ = 0;
  std::uint64_t total_bytes_ = 0;
  std::uint64_t rows_ = 0;
  std::atomic<std::uint64_t> bytes_done_{0};
  std::atomic<bool> reporting_{false};
  std::chrono::steady_clock::time_point last_report_{};
};

void TwoPassLoader::Advance(std::uint64_t bytes) {
  const std::uint64_t done = bytes_done_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  if (!options_.progress || reporting_.exchange(true, std::memory_order_acquire)) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_report_ >= std::chrono::duration<double>(options_.progress_interval_s)) {
    last_report_ = now;
    options_.progress(LoadProgress{pass_, done, total_bytes_, rows_});
  }
  reporting_.store(false, std::memory_order_release);
}

// Runs on_text(chunk_index, text, file_offset, state) over each chunk's blocks; on_text
// returns false to stop reading that chunk. Before reading a chunk, without_reading(chunk_index,
// file, &io_status) may deal with it another way and return true. Threads take the next unread
// chunk as they finish one, so a thread slowed by other processes gets fewer chunks. Which
// thread reads a chunk does not matter: each chunk writes only its own rows.
template <typename WithoutReading, typename OnText>
void TwoPassLoader::ForEachChunk(WithoutReading&& without_reading, OnText&& on_text) {
  std::atomic<std::size_t> next_chunk{0};
  ++pass_;
  bytes_done_ = 0;
  last_report_ = {};  // each pass shows its first block at once
  ParallelFor(threads_, threads_, [&](int t) {
    ThreadState& state = states_[t];
    for (std::size_t i = next_chunk++; i < chunks_.size(); i = next_chunk++) {
      const Chunk& chunk = chunks_[i];
      if (Status s = state.Open(input_, chunk.file); !s.ok()) {
        outcomes_[i].io = s;
        continue;
      }
      if (without_reading(i, *state.file, &outcomes_[i].io)) continue;
      outcomes_[i].io = ForEachLineBlock(*state.file, chunk.begin, chunk.end, state.buffer,
                                         [&](std::string_view text, std::uint64_t offset) {
                                           Advance(text.size());
                                           return on_text(i, text, offset, state);
                                         });
    }
  });
}

Status TwoPassLoader::Count(std::vector<ChunkCounts>* counts) {
  counts->assign(chunks_.size(), ChunkCounts{});
  const bool csv = input_.format == TextFormat::kCsv;
  // A remote chunk is counted by its server when it can (http_chunk_count.h); after one
  // "cannot", the other chunks are read and counted here.
  std::atomic<bool> server_counts{true};
  auto on_server = [&](std::size_t i, const OpenedFile& file, Status* io) {
    if (!file.remote() || !server_counts) return false;
    const Chunk& chunk = chunks_[i];
    Result<std::optional<ChunkCounts>> c =
        file.CountOnServer(chunk.begin, chunk.end, input_.format, input_.label_column);
    if (!c.ok()) {
      *io = c.status();
      return true;
    }
    if (!c->has_value()) {
      server_counts = false;
      return false;
    }
    (*counts)[i] = **c;
    return true;
  };
  ForEachChunk(on_server, [&](std::size_t i, std::string_view text, std::uint64_t, ThreadState&) {
    if (csv) {
      CountCsv(text, input_.label_column, &(*counts)[i]);
    } else {
      CountLibsvm(text, &(*counts)[i]);
    }
    return true;
  });
  return FirstError();
}

Status TwoPassLoader::Fill(std::vector<CsrCursor>* cursors, std::vector<DenseIndexTracker>* dense) {
  const bool csv = input_.format == TextFormat::kCsv;
  auto always_read = [](std::size_t, const OpenedFile&, Status*) { return false; };
  ForEachChunk(always_read, [&](std::size_t i, std::string_view text, std::uint64_t offset,
                                ThreadState& state) {
    ChunkOutcome& outcome = outcomes_[i];
    CsrCursor* cursor = &(*cursors)[i];
    const bool ok = csv ? ParseCsv(text, offset, input_.label_column, cursor, &outcome.failure)
                        : state.libsvm.Parse(text, offset, cursor, &outcome.failure);
    outcome.parse_failed = !ok;
    if (ok && dense != nullptr) (*dense)[i].AfterBlock(*cursor);
    return ok;
  });
  if (Status s = FirstError(); !s.ok()) return s;
  for (const CsrCursor& c : *cursors) {
    if (c.rows != c.row_capacity || c.entries != c.entry_capacity) {
      return Status::Internal("loader passes disagree on the number of rows or entries");
    }
  }
  return Status::Ok();
}

// I/O errors first, then the parse failure of the earliest chunk (chunks are in row order and
// each stops at its first bad line), so the reported line does not depend on thread timing.
Status TwoPassLoader::FirstError() const {
  for (const ChunkOutcome& o : outcomes_) {
    if (!o.io.ok()) return o.io;
  }
  for (std::size_t i = 0; i < outcomes_.size(); ++i) {
    const ChunkOutcome& o = outcomes_[i];
    if (!o.parse_failed) continue;
    const std::string& path = input_.files[chunks_[i].file].path;
    const std::string& version = input_.files[chunks_[i].file].version;
    Result<std::string> where = LocateOffset(path, o.failure.offset, version);
    if (!where.ok()) return where.status();
    const std::string message = *where + ": " + o.failure.message;
    return o.failure.internal ? Status::Internal(message) : Status::InvalidInput(message);
  }
  return Status::Ok();
}

Status CheckOptions(const LoadOptions& options) {
  if (options.nparts < 1 || options.part < 0 || options.part >= options.nparts) {
    return Status::InvalidInput("part " + std::to_string(options.part) + " of " +
                                std::to_string(options.nparts) +
                                " parts: need nparts >= 1 and 0 <= part < nparts");
  }
  return Status::Ok();
}

std::uint64_t ChunkBytes(const std::vector<Chunk>& chunks) {
  std::uint64_t bytes = 0;
  for (const Chunk& c : chunks) bytes += c.end - c.begin;
  return bytes;
}

}  // namespace
}  // namespace detail

Result<DMatrix> Load(const std::string& uri, const LoadOptions& options, const Context& ctx,
                     LoadStats* stats) {
  using namespace detail;
  if (Status s = CheckOptions(options); !s.ok()) return s;
  if (uri.find('#') != std::string::npos) {
    Result<CacheUri> cache = SplitCacheUri(uri);
    if (!cache.ok()) return cache.status();
    // The training matrix (whose caller reads no index) goes to external memory; other
    // readers (eval sets, prediction) read the data in memory, as the pages only serve training.
    if (options.omit_dense_index) return LoadExternal(*cache, options, ctx, stats);
    return Load(cache->data, options, ctx, stats);
  }
  Result<InputSpec> input = ResolveInput(uri);
  if (!input.ok()) return input.status();
  const ByteRange range = PartRange(input->total_bytes, options.part, options.nparts);
  if (options.stream_dense && options.omit_dense_index &&
      StreamLoadWanted(range.end - range.begin)) {
    return LoadExternal(CacheUri{uri, ""}, options, ctx, stats);
  }
  const int threads = ctx.ThreadsFor(range.end - range.begin, kParseGrain);
  Result<std::vector<Chunk>> chunks =
      PlanChunks(*input, range, SlicesFor(range.end - range.begin, threads));
  if (!chunks.ok()) return chunks.status();
  if (stats != nullptr) *stats = LoadStats{ChunkBytes(*chunks), threads};

  TwoPassLoader loader(*input, std::move(*chunks), threads, options);
  std::vector<ChunkCounts> counts;
  if (Status s = loader.Count(&counts); !s.ok()) return s;
  std::uint64_t rows = 0;
  for (const ChunkCounts& c : counts) rows += c.rows;
  loader.set_rows(rows);
  DMatrix matrix;
  std::uint64_t entries = 0;
  for (const ChunkCounts& c : counts) entries += c.entries;
  std::optional<ScratchIndex> scratch;
  if (options.omit_dense_index && CountsLookDense(counts)) scratch.emplace(entries);
  if (scratch && scratch->data() == nullptr) scratch.reset();
  std::vector<CsrCursor> cursors =
      LayOutMatrix(counts, threads, &matrix, scratch ? scratch->data() : nullptr);
  std::vector<DenseIndexTracker> trackers(scratch ? cursors.size() : 0);
  if (Status s = loader.Fill(&cursors, scratch ? &trackers : nullptr); !s.ok()) return s;
  if (Status s = loader.CheckWeights(cursors); !s.ok()) return s;
  for (const CsrCursor& c : cursors) matrix.num_col = std::max(matrix.num_col, c.num_col);
  if (scratch) FinishDenseIndex(trackers, cursors, *scratch, entries, &matrix);
  return matrix;
}

Result<DMatrix> Load(const std::string& uri, const LoadOptions& options, const Context& ctx) {
  return Load(uri, options, ctx, nullptr);
}

}  // namespace treering::data
