// Pre-flight, once the data is read (docs/status.md): the ranks' training parts must agree on
// what they are, so a shard written by another export (continuous labels among 0/1 ones, one
// CSV column more) fails at once naming the ranks instead of training a wrong model.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "cli_options.h"
#include "data/dmatrix.h"

namespace treering::cli {

enum class LabelKind : std::uint8_t { kNone = 0, kBinary = 1, kInteger = 2, kContinuous = 3 };

// What one rank's part says about the data; gathered from every rank (plain bytes).
struct PartFacts {
  std::uint8_t has_rows = 0;
  std::uint8_t csv = 0;  // format=csv: a fixed column count, so the feature counts must agree
  LabelKind label_kind = LabelKind::kNone;
  std::uint8_t pad = 0;
  std::uint32_t label_columns = 1;
  std::uint64_t num_col = 0;
  float example = 0;  // a label that is not an integer (kContinuous)
  float low = 0;      // the labels' range (kInteger, kBinary)
  float high = 0;
};

// The facts of `part`, read from `uri` (data = URI).
PartFacts FactsOf(const data::DMatrix& part, const std::string& uri);

// "label kind: binary 0/1 on rank 0, continuous (e.g. 0.37) on rank 1; ..." or nothing when
// the parts agree: the format, the feature count (CSV parts only), the label columns, and
// binary 0/1 labels beside continuous ones. Parts without rows are not compared.
std::optional<std::string> PartsMismatch(const std::vector<PartFacts>& per_rank);

// A collective: every rank gathers every rank's facts and fails alike, kInvalidInput naming
// data = URI. TREERING_PREFLIGHT=0 skips it, as the configuration check.
Status CheckPartsAgree(const CliOptions& options, const data::DMatrix& part);

}  // namespace treering::cli
