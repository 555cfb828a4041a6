// CSV (?format=csv): label in column 0, feature j in column j+1, empty cell = missing.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "data/load.h"
#include "matrix_compare.h"
#include "temp_dir.h"

namespace treering::data {
namespace {

using treering::testing::TempDir;

TEST(LoadCsv, CellsBecomeColumnsAndEmptyCellsAreMissing) {
  TempDir dir;
  const std::string file = dir.Write("d.csv", "1,0.5,,2\r\n\n0, 3 ,4,\n 2 ,,,\n-1.5,1e3,-0.25,7\n");
  Result<DMatrix> m = Load(file + "?format=csv");
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->label, (std::vector<float>{1, 0, 2, -1.5f}));
  EXPECT_EQ(m->row_ptr, (std::vector<std::uint64_t>{0, 2, 4, 4, 7}));
  EXPECT_EQ(m->index, (std::vector<std::uint32_t>{0, 2, 0, 1, 0, 1, 2}));
  EXPECT_EQ(m->value, (std::vector<float>{0.5f, 2, 3, 4, 1000, -0.25f, 7}));
  EXPECT_EQ(m->num_col, 3u);  // the widest row has 3 feature cells, even if the last is empty
  EXPECT_TRUE(m->weight.empty());
}

TEST(LoadCsv, LabelColumnOptionMovesTheLabel) {
  TempDir dir;
  const std::string file = dir.Write("l.csv", "0.5,,1,2\n3,4,0,\n");
  Result<DMatrix> m = Load(file + "?format=csv&label_column=2");
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->label, (std::vector<float>{1, 0}));
  EXPECT_EQ(m->row_ptr, (std::vector<std::uint64_t>{0, 2, 4}));
  EXPECT_EQ(m->index, (std::vector<std::uint32_t>{0, 2, 0, 1}));  // columns 0, 1, 3 -> 0, 1, 2
  EXPECT_EQ(m->value, (std::vector<float>{0.5f, 2, 3, 4}));
  EXPECT_EQ(m->num_col, 3u);
  Result<DMatrix> first = Load(file + "?format=csv&label_column=0");
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->label, (std::vector<float>{0.5f, 3}));
}

TEST(LoadCsv, ShortRowWithoutTheLabelColumn) {
  TempDir dir;
  const std::string file = dir.Write("short.csv", "1,2\n3\n");
  Result<DMatrix> m = Load(file + "?format=csv&label_column=1");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), StatusCode::kInvalidInput);
  EXPECT_EQ(m.status().message(),
            file + ":2:1: missing label: the row has 1 columns, the label is column 1 (0-based)");
}

TEST(LoadCsv, ShardsAndThreadsGiveTheSameRows) {
  std::string text;
  for (int r = 0; r < 40000; ++r) {
    text += std::to_string(r) + "," + std::to_string(r % 7) + ",," + std::to_string(r * 0.5) + "\n";
  }
  TempDir dir;
  const std::string uri = dir.Write("big.csv", text) + "?format=csv";
  Result<DMatrix> whole = Load(uri, {0, 1}, Context{.nthread = 1});
  ASSERT_TRUE(whole.ok()) << whole.status().message();
  ASSERT_EQ(whole->NumRows(), 40000u);
  Result<DMatrix> threaded = Load(uri, {0, 1}, Context{.nthread = 4});
  ASSERT_TRUE(threaded.ok());
  testing::ExpectSameMatrix(*threaded, *whole);
  std::vector<float> labels;
  for (int part = 0; part < 3; ++part) {
    Result<DMatrix> m = Load(uri, {part, 3}, Context{.nthread = 2});
    ASSERT_TRUE(m.ok());
    labels.insert(labels.end(), m->label.begin(), m->label.end());
  }
  EXPECT_EQ(labels, whole->label);
}

TEST(LoadCsv, MalformedCellsAreLocated) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"1,2\n,3\n", "2:1: missing label (empty cell)"},
      {"1,abc,3\n", "1:3: expected a number as value, got 'abc'"},
      {"1,2 3\n", "1:3: expected a number as value, got '2'"},
      {"a,b\n1,2\n", "1:1: expected a number as label, got 'a'"},
      {"1,nan\n",
       "1:3: non-finite value, got 'nan' (leave a missing feature's cell empty instead)"},
      {"1,1e39\n", "1:3: value out of float range, got '1e39'"},
  };
  TempDir dir;
  for (const auto& [text, what] : cases) {
    const std::string file = dir.Write("bad.csv", text);
    Result<DMatrix> m = Load(file + "?format=csv");
    ASSERT_FALSE(m.ok()) << text;
    EXPECT_EQ(m.status().code(), StatusCode::kInvalidInput);
    EXPECT_EQ(m.status().message(), file + ":" + what);
  }
}

}  // namespace
}  // namespace treering::data
