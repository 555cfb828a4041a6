// Seeded random-mutation fuzzing of the LibSVM and CSV parsers: valid text with bytes flipped,
// inserted, deleted or cut off must either load into a well-formed DMatrix or fail with
// kInvalidInput and a "FILE:LINE:COL: " message. Never a crash, a hang or an internal error.
#include <chrono>
#include <cmath>
#include <random>
#include <regex>
#include <string>

#include <gtest/gtest.h>

#include "data/load.h"
#include "libsvm_writer.h"
#include "temp_dir.h"

namespace treering::data {
namespace {

constexpr auto kBudget = std::chrono::seconds(4);  // per format
constexpr int kMaxIterations = 200000;

std::string Mutate(std::string text, std::mt19937_64& rng) {
  static const char kAlphabet[] = "0123456789:.-+eE#qid \t\r\n,nanif\0\xff";
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits && !text.empty(); ++e) {
    const std::size_t at = rng() % text.size();
    const char byte =
        rng() % 4 == 0 ? static_cast<char>(rng() % 256) : kAlphabet[rng() % (sizeof kAlphabet - 1)];
    switch (rng() % 5) {
      case 0:
        text[at] = byte;
        break;  // flip
      case 1:
        text.insert(at, 1, byte);
        break;  // insert
      case 2:
        text.erase(at, 1 + rng() % 3);
        break;  // delete
      case 3:
        text.resize(at);
        break;  // truncate
      default:
        text.insert(at, text.substr(rng() % text.size(), 8));  // duplicate a piece
    }
  }
  return text;
}

// The DMatrix invariants every consumer relies on.
void ExpectWellFormed(const DMatrix& m) {
  ASSERT_EQ(m.row_ptr.front(), 0u);
  ASSERT_EQ(m.row_ptr.back(), m.index.size());
  ASSERT_EQ(m.value.size(), m.index.size());
  ASSERT_EQ(m.label.size(), m.NumRows());
  ASSERT_TRUE(m.weight.empty() || m.weight.size() == m.NumRows());
  ASSERT_TRUE(m.qid.empty() || m.qid.size() == m.NumRows());
  for (std::size_t r = 0; r < m.NumRows(); ++r) {
    ASSERT_LE(m.row_ptr[r], m.row_ptr[r + 1]);
    ASSERT_TRUE(std::isfinite(m.label[r]));
    for (std::uint64_t e = m.row_ptr[r]; e < m.row_ptr[r + 1]; ++e) {
      if (e > m.row_ptr[r]) {
        ASSERT_LT(m.index[e - 1], m.index[e]);
      }
      ASSERT_LT(m.index[e], m.num_col);
      ASSERT_TRUE(std::isfinite(m.value[e]));
    }
  }
}

void Fuzz(const std::string& seed_text, const std::string& suffix, std::uint64_t seed) {
  treering::testing::TempDir dir;
  const std::string file = dir.Path("fuzz.txt");
  // "FILE:LINE:COL: message" with FILE quoted as a regex literal.
  std::string pattern = std::regex_replace(file, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)");
  pattern.append(R"(:\d+:\d+: .+)");
  const std::regex located(pattern);
  std::mt19937_64 rng(seed);
  const auto deadline = std::chrono::steady_clock::now() + kBudget;
  int iterations = 0;
  int failures = 0;
  for (; iterations < kMaxIterations && std::chrono::steady_clock::now() < deadline; ++iterations) {
    const std::string text = Mutate(seed_text, rng);
    dir.Write("fuzz.txt", text);
    Result<DMatrix> m =
        Load(file + suffix, {0, 1}, Context{.nthread = 1 + static_cast<int>(rng() % 2)});
    if (m.ok()) {
      ExpectWellFormed(*m);
    } else {
      ++failures;
      ASSERT_EQ(m.status().code(), StatusCode::kInvalidInput) << m.status().message();
      ASSERT_TRUE(std::regex_match(m.status().message(), located)) << m.status().message();
    }
    if (::testing::Test::HasFatalFailure()) {
      ADD_FAILURE() << "input was:\n" << text;
      return;
    }
  }
  EXPECT_GT(iterations, 100);
  EXPECT_GT(failures, 0);           // the mutations do reach the error paths
  EXPECT_LT(failures, iterations);  // and some mutated files stay valid
}

TEST(LoadFuzz, MutatedLibsvmNeverCrashes) {
  std::mt19937_64 rng(21);
  const auto rows = testing::RandomRows(rng, 12, testing::RowOptions{1.0, 0.3, 8, 0.5});
  Fuzz(testing::LibsvmText(rows, testing::Spelling{true, true, true, true}, rng), "", 22);
}

TEST(LoadFuzz, MutatedCsvNeverCrashes) {
  Fuzz("1,0.5,,2\n0,3,4,\n2,,,-1e3\n1,.5,7,8\n", "?format=csv", 23);
}

}  // namespace
}  // namespace treering::data
