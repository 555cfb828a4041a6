// Pre-flight once the data is read (booster/cli/preflight_data.h): what each part says about
// itself and which differences between the ranks' parts are named.
#include "preflight_data.h"

#include <gtest/gtest.h>

namespace treering::cli {
namespace {

data::DMatrix Part(std::vector<float> labels, std::uint64_t num_col = 4) {
  data::DMatrix m;
  m.row_ptr.assign(labels.size() + 1, 0);
  m.label = std::move(labels);
  m.num_col = num_col;
  return m;
}

TEST(PreflightDataTest, LabelKinds) {
  EXPECT_EQ(FactsOf(Part({0, 1, 1}), "a").label_kind, LabelKind::kBinary);
  const PartFacts ints = FactsOf(Part({0, 3, 2}), "a");
  EXPECT_EQ(ints.label_kind, LabelKind::kInteger);
  EXPECT_EQ(ints.high, 3);
  const PartFacts cont = FactsOf(Part({1, 0.37f, 2}), "a");
  EXPECT_EQ(cont.label_kind, LabelKind::kContinuous);
  EXPECT_FLOAT_EQ(cont.example, 0.37f);
  EXPECT_EQ(FactsOf(Part({}), "a").has_rows, 0);
  EXPECT_EQ(FactsOf(Part({1}), "t.csv?format=csv").csv, 1);
  EXPECT_EQ(FactsOf(Part({1}), "t.csv").csv, 0);
}

TEST(PreflightDataTest, BinaryBesideContinuousIsNamedWithTheRanks) {
  const auto line = PartsMismatch(
      {FactsOf(Part({0, 1}), "a"), FactsOf(Part({0.37f, 2}), "a"), FactsOf(Part({1.5f}), "a")});
  ASSERT_TRUE(line);
  EXPECT_EQ(*line, "label kind: binary 0/1 on rank 0, continuous (e.g. 0.37) on ranks 1-2");
}

TEST(PreflightDataTest, CompatiblePartsAgree) {
  // 0/1 beside 0..4 (a multi-class part that saw two classes), integers beside continuous
  // values (one regression target), LibSVM parts with different largest indices, an empty
  // part: all fine.
  EXPECT_FALSE(PartsMismatch({FactsOf(Part({0, 1}, 3), "a"), FactsOf(Part({4, 2}, 9), "a")}));
  EXPECT_FALSE(PartsMismatch({FactsOf(Part({3, 7}), "a"), FactsOf(Part({0.5f}), "a")}));
  EXPECT_FALSE(PartsMismatch({FactsOf(Part({0.5f}), "a"), FactsOf(Part({}), "a")}));
}

TEST(PreflightDataTest, CsvFeatureCountsAndLabelColumns) {
  PartFacts wide = FactsOf(Part({1}, 11), "t.csv?format=csv");
  const auto features = PartsMismatch({FactsOf(Part({1}, 10), "t.csv?format=csv"),
                                       FactsOf(Part({2}, 10), "t.csv?format=csv"), wide});
  ASSERT_TRUE(features);
  EXPECT_EQ(*features, "feature count: 10 on ranks 0-1, 11 on rank 2");
  PartFacts two = FactsOf(Part({1, 2}), "a");
  two.label_columns = 2;
  const auto columns = PartsMismatch({FactsOf(Part({1}), "a"), two});
  ASSERT_TRUE(columns);
  EXPECT_EQ(*columns, "label columns: 1 on rank 0, 2 on rank 1");
  const auto format = PartsMismatch({FactsOf(Part({1}), "a"), FactsOf(Part({1}), "b?format=csv")});
  ASSERT_TRUE(format);
  EXPECT_EQ(*format, "format: libsvm on rank 0, csv on rank 1");
}

}  // namespace
}  // namespace treering::cli
