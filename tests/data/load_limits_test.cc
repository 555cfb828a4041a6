// Input that used to crash or mislead the learners downstream (issue 16): feature indices
// beyond the documented limit, and files where only some rows carry label:weight.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "data/load.h"
#include "temp_dir.h"

namespace treering::data {
namespace {

using treering::testing::TempDir;

std::string LoadError(const std::string& uri, const LoadOptions& options = {0, 1},
                      int nthread = 1) {
  Result<DMatrix> m = Load(uri, options, Context{.nthread = nthread});
  if (m.ok()) return "(loaded)";
  EXPECT_EQ(m.status().code(), StatusCode::kInvalidInput) << m.status().message();
  return m.status().message();
}

const std::string kLimit = " (at most 67108864 features, docs/data.md)";

TEST(LoadLimits, FeatureIndexOverTheLimitIsLocated) {
  TempDir dir;
  for (const std::string index : {"67108864", "100000000", "4294967295", "99999999999"}) {
    const std::string file = dir.Write("wide.libsvm", "1 0:1\n0 2:1 " + index + ":1\n1 1:1\n");
    EXPECT_EQ(LoadError(file), file + ":2:7: feature index over the limit of 67108863" + kLimit +
                                   ", got '" + index + ":1'");
  }
  const std::string one_based = dir.Write("one.libsvm", "1 67108865:1\n");
  EXPECT_EQ(LoadError(one_based + "?indexing_mode=1"),
            one_based + ":1:3: feature index over the limit " + "of 67108864" + kLimit +
                ", got '67108865:1'");
}

// The largest index allowed costs memory for the entries present only: the CSR matrix does not
// depend on num_col.
TEST(LoadLimits, LargestIndexLoadsInMemoryOfTheEntriesPresent) {
  TempDir dir;
  const std::string file = dir.Write("edge.libsvm", "1 0:1\n0 67108863:2\n");
  Result<DMatrix> m = Load(file, {0, 1}, Context{.nthread = 1});
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->num_col, kMaxFeatures);
  EXPECT_EQ(m->index, (std::vector<std::uint32_t>{0, 67108863}));
  EXPECT_LT(m->Bytes(), 100u);
  Result<DMatrix> one = Load(dir.Write("one.libsvm", "1 67108864:1\n") + "?indexing_mode=1");
  ASSERT_TRUE(one.ok()) << one.status().message();
  EXPECT_EQ(one->index, std::vector<std::uint32_t>{67108863});
}

// 2^26 + 1 feature cells (67 MB of commas): the CSV column count has the same limit.
TEST(LoadLimits, CsvWithMoreColumnsThanTheLimit) {
  TempDir dir;
  const std::string ok = dir.Write("edge.csv", "1" + std::string(kMaxFeatures, ',') + "2\n");
  Result<DMatrix> m = Load(ok + "?format=csv", {0, 1}, Context{.nthread = 1});
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->num_col, kMaxFeatures);
  EXPECT_EQ(m->index, std::vector<std::uint32_t>{67108863});
  const std::string wide = dir.Write("wide.csv", "1,2\n1" + std::string(kMaxFeatures + 1, ','));
  EXPECT_EQ(LoadError(wide + "?format=csv"), wide + ":2:67108867: more than 67108864 feature " +
                                                 "columns on the line (the limit, docs/data.md)");
}

TEST(LoadLimits, RowWithoutLabelInAnUnweightedFile) {
  TempDir dir;
  // "3:1 4:2" reads as label 3, weight 1: the only weighted row of the file.
  const std::string file = dir.Write("nolabel.libsvm", "# rows\n1 0:1\n0 1:2\n3:1 4:2\n1 2:1\n");
  EXPECT_EQ(LoadError(file), file + ":4:1: row has a weight (label:weight) but " + file +
                                 ":2:1 has none (a row without its label reads as "
                                 "label:weight): weight every row or none, as XGBoost requires, "
                                 "got '3:1'");
}

TEST(LoadLimits, RowWithoutWeightInAWeightedFile) {
  TempDir dir;
  const std::string file = dir.Write("mixed.libsvm", "  1:0.5 0:1\n0:2 1:2\n1 qid:3 2:1\n");
  EXPECT_EQ(LoadError(file), file + ":3:1: row has no weight but " + file +
                                 ":1:3 has one (label:weight): weight every row or none, as "
                                 "XGBoost requires, got '1'");
  const std::string all = dir.Write("all.libsvm", "1:0.5 0:1\n0:2 1:2\n");
  Result<DMatrix> m = Load(all);
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->weight, (std::vector<float>{0.5f, 2.0f}));
}

// The rule holds across parser chunks (the odd row far from the first) and file lists, and the
// line reported does not depend on the threads.
TEST(LoadLimits, WeightRuleAcrossChunksAndFiles) {
  std::string text;
  for (int line = 1; line <= 60000; ++line) {
    text += line == 50000 ? "1:2 0:1.25 1:2.5\n" : "0 0:1.25 1:2.5 2:3.75\n";
  }
  TempDir dir;
  const std::string file = dir.Write("late.libsvm", text);
  const std::string expected = file + ":50000:1: row has a weight (label:weight) but " + file +
                               ":1:1 has none (a row without its label reads as "
                               "label:weight): weight every row or none, as XGBoost requires, "
                               "got '1:2'";
  for (int threads : {1, 2, 4}) EXPECT_EQ(LoadError(file, {0, 1}, threads), expected);
  // Part 0 of 2 holds only unweighted rows: each part is checked on its own (Load has no Comm;
  // the train driver compares the parts).
  EXPECT_EQ(LoadError(file, {0, 2}, 2), "(loaded)");
  // Part 1's first row is the first line starting in the second half of the bytes (lines of
  // 22 bytes before line 50000): line 30001, which part 1 names.
  ASSERT_EQ((text.size() / 2 + 21) / 22 + 1, 30001u);
  std::string part1 = expected;
  part1.replace(part1.find(":1:1 has none"), 4, ":30001:1");
  EXPECT_EQ(LoadError(file, {1, 2}, 2), part1);

  const std::string a = dir.Write("a.libsvm", "1 0:1\n");
  const std::string b = dir.Write("b.libsvm", "1:3 0:1\n");
  EXPECT_EQ(LoadError(a + "," + b), b + ":1:1: row has a weight (label:weight) but " + a +
                                        ":1:1 has none (a row without its label reads as "
                                        "label:weight): weight every row or none, as XGBoost "
                                        "requires, got '1:3'");
}

}  // namespace
}  // namespace treering::data
