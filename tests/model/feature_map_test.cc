// The fmap reader: XGBoost's `index name type` lines, and one error naming file:line for
// anything XGBoost's reader would silently stop at.
#include "booster/feature_map.h"

#include <gtest/gtest.h>

namespace treering::booster {
namespace {

TEST(FeatureMap, ReadsXgboostFeatureMaps) {
  // The layout of XGBoost's demo/data/featmap.txt, plus a blank line and a CRLF ending.
  auto fmap = FeatureMap::Parse("0\tcap-shape=bell\ti\n1 age q\n\n2 count int\r\n3 w float\n4 k c",
                                "featmap.txt");
  ASSERT_TRUE(fmap.ok()) << fmap.status().message();
  ASSERT_EQ(fmap->Size(), 5u);
  EXPECT_EQ(fmap->Name(0), "cap-shape=bell");
  EXPECT_EQ(fmap->TypeOf(0), FeatureMap::Type::kIndicator);
  EXPECT_EQ(fmap->TypeOf(1), FeatureMap::Type::kQuantitative);
  EXPECT_EQ(fmap->TypeOf(2), FeatureMap::Type::kInteger);
  EXPECT_EQ(fmap->Name(2), "count");
  EXPECT_EQ(fmap->TypeOf(3), FeatureMap::Type::kFloat);
  EXPECT_EQ(fmap->TypeOf(4), FeatureMap::Type::kCategorical);
  EXPECT_TRUE(FeatureMap::Parse("", "empty").value().Empty());
}

void ExpectError(const std::string& text, const std::string& needle) {
  auto fmap = FeatureMap::Parse(text, "fm.txt");
  ASSERT_FALSE(fmap.ok()) << text;
  EXPECT_EQ(fmap.status().code(), StatusCode::kInvalidInput);
  EXPECT_NE(fmap.status().message().find(needle), std::string::npos)
      << fmap.status().message() << " lacks " << needle;
}

TEST(FeatureMap, BadLinesNameFileAndLine) {
  ExpectError("0 a i\n1 b x\n", "fm.txt:2: feature 'b': type 'x' is not one of i, q, int");
  ExpectError("0 a i\n2 b q\n", "fm.txt:2: feature index '2': expected 1");
  ExpectError("1 a i\n", "fm.txt:1: feature index '1': expected 0");
  ExpectError("zero a i\n", "fm.txt:1: feature index 'zero'");
  ExpectError("0 a i\n\n0 a\n", "fm.txt:3: expected `index name type`, got '0 a'");
  ExpectError("0 two words q\n", "fm.txt:1: expected `index name type`");
  ExpectError("-1 a q\n", "fm.txt:1: feature index '-1'");
}

TEST(FeatureMap, MissingFileIsAUserError) {
  auto fmap = FeatureMap::Read("/nonexistent/featmap.txt");
  ASSERT_FALSE(fmap.ok());
  EXPECT_EQ(fmap.status().code(), StatusCode::kInvalidInput);
  EXPECT_NE(fmap.status().message().find("/nonexistent/featmap.txt"), std::string::npos);
}

}  // namespace
}  // namespace treering::booster
