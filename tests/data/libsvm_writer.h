// Random LibSVM data sets for the loader tests: the rows as plain structs (the expectation)
// and their text with a choice of spellings, so a test can compare what Load returns with what
// was written.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "data/dmatrix.h"

namespace treering::data::testing {

struct Row {
  float label = 0;
  bool has_weight = false;
  float weight = 1;
  bool has_qid = false;
  std::uint64_t qid = 0;
  std::vector<std::pair<std::uint32_t, float>> entries;  // increasing indices
};

struct RowOptions {
  double weight_probability = 0;
  double qid_probability = 0;
  int max_index = 50;
  double present_probability = 0.3;  // each index in [0, max_index) is present with this
};

std::vector<Row> RandomRows(std::mt19937_64& rng, std::size_t count, const RowOptions& options);

struct Spelling {
  bool crlf = false;             // "\r\n" line ends
  bool mixed_blanks = false;     // tabs and runs of spaces between tokens
  bool comments = false;         // comment lines, trailing comments and blank lines
  bool trailing_newline = true;  // the last line ends with a newline
};

// One line per row (plus comment/blank lines when asked). Values are written with 9
// significant digits, so they read back exactly as the same float.
std::string LibsvmText(const std::vector<Row>& rows, const Spelling& spelling,
                       std::mt19937_64& rng);

// The DMatrix that Load must return for these rows.
DMatrix ExpectedMatrix(const std::vector<Row>& rows);

}  // namespace treering::data::testing
