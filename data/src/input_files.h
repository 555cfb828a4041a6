// Resolving a data URI ("a.libsvm,dir/part-*?format=libsvm") into the list of files it names,
// their sizes and the place of each in the concatenated byte stream that sharding splits.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace treering::data::detail {

enum class TextFormat { kLibsvm, kCsv };

struct SourceFile {
  std::string path;
  std::uint64_t size = 0;
  std::uint64_t offset = 0;  // where this file starts in the concatenation of all files
  std::string version;       // an http:// file's ETag, which every later read must match
};

struct InputSpec {
  std::vector<SourceFile> files;  // in URI order; each glob's matches sorted by name
  std::uint64_t total_bytes = 0;
  TextFormat format = TextFormat::kLibsvm;
  // LibSVM indexing_mode: 0 = indices as written (0-based), 1 = written 1-based (subtract 1).
  int index_base = 0;
  // CSV label_column: the column holding the label (0-based); the others are the features.
  std::uint64_t label_column = 0;
  // float_parsing=xgboost: LibSVM numbers rounded as XGBoost 1.7 does (xgboost_float.h).
  bool xgboost_floats = false;
};

// Splits off and checks the "?key=value&..." options, expands globs and comma lists, and checks
// that every file exists, is a regular file and can be opened for reading. An http:// item is
// asked for its size and ETag (HEAD); globs do not apply to it.
Result<InputSpec> ResolveInput(const std::string& uri);

}  // namespace treering::data::detail
