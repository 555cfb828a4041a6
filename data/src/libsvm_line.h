// Internals of the LibSVM parser shared by its hot path (libsvm_parser.cc) and its error path
// (libsvm_diagnose.cc): what went wrong on a line, found cheaply, described later.
#pragma once

#include <cstdint>
#include <string>

namespace treering::data::detail {

enum class LineProblem {
  kNone,
  kLabel,          // first token is not label[:weight]
  kQid,            // "qid:" not followed by an unsigned integer
  kEntry,          // a token that is not index:value
  kZeroOneBased,   // index 0 while indexing_mode=1
  kRepeatedIndex,  // the same index twice in a row
  kCountMismatch,  // the parsing pass disagrees with the counting pass (a bug)
};

struct LineError {
  LineProblem problem = LineProblem::kNone;
  const char* at = nullptr;  // start of the offending token
  std::uint64_t index = 0;   // for kRepeatedIndex
};

// The message for a problem found at `error.at` on the line ending at `line_end`, e.g.
// "expected index:value, got 'x:1'". May move error.at to the exact offending byte.
std::string DescribeLineError(LineError* error, const char* line_end, int index_base);

}  // namespace treering::data::detail
