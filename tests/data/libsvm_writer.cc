#include "libsvm_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace treering::data::testing {
namespace {

std::string Float9(float v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", static_cast<double>(v));
  return text;
}

float RandomValue(std::mt19937_64& rng) {
  switch (rng() % 4) {
    case 0:
      return static_cast<float>(rng() % 100);  // small integers
    case 1:
      return std::uniform_real_distribution<float>(-1, 1)(rng);  // full precision
    case 2:
      return std::ldexp(std::uniform_real_distribution<float>(1, 2)(rng),
                        static_cast<int>(rng() % 80) - 40);  // wide exponents
    default:
      return static_cast<float>(static_cast<int>(rng() % 2000000) - 1000000) / 1000;
  }
}

std::string Blank(const Spelling& spelling, std::mt19937_64& rng) {
  if (!spelling.mixed_blanks) return " ";
  static const char* const kBlanks[] = {" ", "\t", "  ", " \t ", "   "};
  return kBlanks[rng() % 5];
}

std::string RowText(const Row& row, const Spelling& spelling, std::mt19937_64& rng) {
  std::string line = Float9(row.label);
  if (row.has_weight) line.append(":").append(Float9(row.weight));
  if (row.has_qid) line += Blank(spelling, rng) + "qid:" + std::to_string(row.qid);
  for (const auto& [index, value] : row.entries) {
    line += Blank(spelling, rng) + std::to_string(index) + ":" + Float9(value);
  }
  if (spelling.comments && rng() % 4 == 0) line += Blank(spelling, rng) + "# note: 1:2 x:y";
  if (spelling.mixed_blanks && rng() % 3 == 0) line += Blank(spelling, rng);
  return line;
}

}  // namespace

std::vector<Row> RandomRows(std::mt19937_64& rng, std::size_t count, const RowOptions& options) {
  std::bernoulli_distribution weighted(options.weight_probability);
  std::bernoulli_distribution grouped(options.qid_probability);
  std::bernoulli_distribution present(options.present_probability);
  std::vector<Row> rows(count);
  for (Row& row : rows) {
    row.label = static_cast<float>(rng() % 3);
    if ((row.has_weight = weighted(rng))) row.weight = RandomValue(rng);
    if ((row.has_qid = grouped(rng))) row.qid = rng() % 1000;
    for (int i = 0; i < options.max_index; ++i) {
      if (present(rng)) row.entries.emplace_back(i, RandomValue(rng));
    }
  }
  return rows;
}

std::string LibsvmText(const std::vector<Row>& rows, const Spelling& spelling,
                       std::mt19937_64& rng) {
  const std::string newline = spelling.crlf ? "\r\n" : "\n";
  std::string text;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (spelling.comments && rng() % 5 == 0) text += "# a comment line 3:4" + newline;
    if (spelling.comments && rng() % 5 == 0) text += (rng() % 2 ? "" : " \t") + newline;
    text += RowText(rows[i], spelling, rng);
    if (i + 1 < rows.size() || spelling.trailing_newline) text += newline;
  }
  return text;
}

DMatrix ExpectedMatrix(const std::vector<Row>& rows) {
  DMatrix m;
  const bool any_weight =
      std::any_of(rows.begin(), rows.end(), [](const Row& r) { return r.has_weight; });
  const bool any_qid =
      std::any_of(rows.begin(), rows.end(), [](const Row& r) { return r.has_qid; });
  for (const Row& row : rows) {
    for (const auto& [index, value] : row.entries) {
      m.index.push_back(index);
      m.value.push_back(value);
      m.num_col = std::max<std::uint64_t>(m.num_col, index + 1ull);
    }
    m.row_ptr.push_back(m.index.size());
    m.label.push_back(row.label);
    if (any_weight) m.weight.push_back(row.has_weight ? row.weight : 1.0f);
    if (any_qid) m.qid.push_back(row.has_qid ? row.qid : 0);
  }
  return m;
}

}  // namespace treering::data::testing
