#include "weight_rule.h"

#include <string>

#include "error_location.h"

namespace treering::data::detail {
namespace {

using RowMark = CsrCursor::RowMark;

// The earlier of a chunk's two marks: its first row.
const RowMark* FirstRow(const CsrCursor& c) {
  if (!c.first_weighted.seen) return c.first_unweighted.seen ? &c.first_unweighted : nullptr;
  if (!c.first_unweighted.seen) return &c.first_weighted;
  return c.first_weighted.offset < c.first_unweighted.offset ? &c.first_weighted
                                                             : &c.first_unweighted;
}

}  // namespace

Status CheckWeightsAllOrNone(const InputSpec& input, const std::vector<Chunk>& chunks,
                             const std::vector<CsrCursor>& cursors) {
  std::size_t first_chunk = 0;
  const RowMark* first = nullptr;
  for (; first_chunk < cursors.size() && first == nullptr; ++first_chunk) {
    first = FirstRow(cursors[first_chunk]);
  }
  if (first == nullptr) return Status::Ok();  // no rows
  const bool weighted = first == &cursors[first_chunk - 1].first_weighted;
  for (std::size_t i = first_chunk - 1; i < cursors.size(); ++i) {
    const RowMark& odd = weighted ? cursors[i].first_unweighted : cursors[i].first_weighted;
    if (!odd.seen) continue;
    const std::string& first_path = input.files[chunks[first_chunk - 1].file].path;
    Result<std::string> first_where = LocateOffset(first_path, first->offset);
    Result<std::string> where = LocateOffset(input.files[chunks[i].file].path, odd.offset);
    if (!first_where.ok()) return first_where.status();
    if (!where.ok()) return where.status();
    const std::string what =
        weighted ? "row has no weight but " + *first_where + " has one (label:weight)"
                 : "row has a weight (label:weight) but " + *first_where +
                       " has none (a row without its label reads as label:weight)";
    return Status::InvalidInput(
        *where + ": " + what + ": weight every row or none, as XGBoost requires, got " + odd.token);
  }
  return Status::Ok();
}

}  // namespace treering::data::detail
