// base/nearest_key.h: the edit distance and the "did you mean" cut-off (rustc's): at most
// max(len, 3) / 3 edits from the typed key, so a short key is never "corrected" into another.
#include "base/nearest_key.h"

#include <gtest/gtest.h>

namespace treering {
namespace {

TEST(NearestKey, EditDistance) {
  EXPECT_EQ(EditDistance("", "abc"), 3);
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3);
  EXPECT_EQ(EditDistance("max_depth", "max_depth"), 0);
  EXPECT_EQ(NearestKey("etta", {"eta", "gamma", "alpha"}), "eta");
  EXPECT_EQ(NearestKey("x", {}), "");
}

TEST(NearestKey, CutOffGrowsWithTheKey) {
  EXPECT_EQ(MaxSuggestionDistance("eta"), 1);
  EXPECT_EQ(MaxSuggestionDistance("max_dept"), 2);
  EXPECT_EQ(MaxSuggestionDistance("frobnicate"), 3);
  EXPECT_EQ(DidYouMean("etta", {"eta"}), " (did you mean 'eta'?)");
  EXPECT_EQ(DidYouMean("frobnicate", {"eta"}), "");
}

}  // namespace
}  // namespace treering
