#include "external_load.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "chunk_plan.h"
#include "input_files.h"

namespace treering::data::detail {
namespace {

// Text per slice: a slice's parsed floats (~1/3 of its text on dense data) are what the
// loader holds besides the labels.
// TREERING_EXTERNAL_SLICE_BYTES overrides it (tests read small files in several slices).
std::uint64_t SliceBytes() {
  if (const char* env = std::getenv("TREERING_EXTERNAL_SLICE_BYTES")) {
    const std::uint64_t v = std::strtoull(env, nullptr, 10);
    if (v > 0) return v;
  }
  return std::uint64_t{48} << 20;
}

Status AppendMeta(const std::string& uri, const DMatrix& slice, std::uint64_t rows_before,
                  DMatrix* out) {
  if (rows_before > 0 && slice.weight.empty() != out->weight.empty()) {
    return Status::InvalidInput(uri + ": some rows carry label:weight and others do not");
  }
  out->label.insert(out->label.end(), slice.label.begin(), slice.label.end());
  out->weight.insert(out->weight.end(), slice.weight.begin(), slice.weight.end());
  if (!slice.qid.empty() && out->qid.size() < rows_before) out->qid.resize(rows_before, 0);
  if (!slice.qid.empty() || !out->qid.empty()) {
    if (slice.qid.empty()) {
      out->qid.resize(out->qid.size() + slice.NumRows(), 0);
    } else {
      out->qid.insert(out->qid.end(), slice.qid.begin(), slice.qid.end());
    }
  }
  out->label_columns = slice.label_columns;
  return Status::Ok();
}

// The streamed load's note when it cannot spill (TMPDIR unwritable, a full disk): the matrix
// is then loaded whole in memory, as without streaming; only the memory differs.
Result<DMatrix> SpillFailed(const std::string& uri, const Status& why, const LoadOptions& options,
                            const Context& ctx, LoadStats* stats) {
  std::fprintf(stderr, "treering: streamed load of %s: %s; loading it whole in memory\n",
               uri.c_str(), why.message().c_str());
  LoadOptions plain = options;
  plain.stream_dense = false;
  return Load(uri, plain, ctx, stats);
}

}  // namespace

bool StreamLoadWanted(std::uint64_t part_bytes) {
  if (const char* env = std::getenv("TREERING_STREAM_LOAD")) {
    if (std::string(env) == "1") return true;
    if (std::string(env) == "0") return false;
  }
  return part_bytes >= kStreamLoadBytes;
}

Result<DMatrix> LoadExternal(const CacheUri& uri, const LoadOptions& options, const Context& ctx,
                             LoadStats* stats) {
  Result<InputSpec> input = ResolveInput(uri.data);
  if (!input.ok()) return input.status();
  const ByteRange range = PartRange(input->total_bytes, options.part, options.nparts);
  const std::uint64_t slices = std::max<std::uint64_t>(1, (range.end - range.begin) / SliceBytes());
  const bool temporary = uri.prefix.empty();
  const std::string prefix = RankedCachePrefix(uri.prefix, options.part, options.nparts);
  DMatrix out;
  std::shared_ptr<ExternalColumns> columns;
  std::uint64_t rows = 0;
  LoadStats total;
  for (std::uint64_t k = 0; k < slices; ++k) {
    LoadOptions sub = options;
    sub.part = static_cast<int>(std::uint64_t(options.part) * slices + k);
    sub.nparts = static_cast<int>(std::uint64_t(options.nparts) * slices);
    sub.omit_dense_index = true;
    sub.stream_dense = false;
    LoadStats s;
    Result<DMatrix> slice = Load(uri.data, sub, ctx, &s);
    if (!slice.ok()) return slice.status();  // `columns` removes what was spilled
    total.bytes += s.bytes;
    total.threads = std::max(total.threads, s.threads);
    if (slice->NumRows() == 0) continue;
    if (!slice->implicit_index || (columns && slice->num_col != columns->cols())) {
      columns.reset();
      LoadOptions plain = options;
      plain.stream_dense = false;
      if (temporary) return Load(uri.data, plain, ctx, stats);  // sparse: today's load
      std::fprintf(stderr,
                   "treering: %s: not dense (rows with missing features): external memory "
                   "holds dense data only, this matrix is loaded in memory\n",
                   uri.data.c_str());
      return Load(uri.data, plain, ctx, stats);
    }
    if (!columns) {
      const auto cols = static_cast<std::uint32_t>(slice->num_col);
      columns = temporary ? ExternalColumns::Temporary(cols)
                          : std::make_shared<ExternalColumns>(prefix, cols);
      if (Status st = columns->Create(); !st.ok()) {
        columns.reset();  // removes what Create made
        if (temporary) return SpillFailed(uri.data, st, options, ctx, stats);
        return st;
      }
    }
    if (Status st = columns->AppendRows(slice->value.data(), slice->NumRows()); !st.ok()) {
      columns.reset();  // its files go before the whole matrix is read
      if (temporary) return SpillFailed(uri.data, st, options, ctx, stats);
      return st;
    }
    if (Status st = AppendMeta(uri.data, *slice, rows, &out); !st.ok()) return st;
    rows += slice->NumRows();
  }
  if (stats != nullptr) *stats = total;
  if (!columns) return out;  // no rows in this part: an ordinary empty matrix
  if (Status st = columns->Finish(); !st.ok()) {
    columns.reset();
    if (temporary) return SpillFailed(uri.data, st, options, ctx, stats);
    return st;
  }
  if (!out.qid.empty()) out.qid.resize(rows, 0);
  out.num_col = columns->cols();
  out.row_ptr.resize(rows + 1);
  for (std::uint64_t r = 0; r <= rows; ++r) out.row_ptr[r] = r * out.num_col;
  out.implicit_index = true;
  out.external = std::move(columns);
  return out;
}

}  // namespace treering::data::detail
