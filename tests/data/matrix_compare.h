// Exact DMatrix comparison for tests: every array equal, floats compared bit for bit.
#pragma once

#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "data/dmatrix.h"

namespace treering::data::testing {

inline bool SameFloats(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

inline void ExpectSameMatrix(const DMatrix& actual, const DMatrix& expected) {
  EXPECT_EQ(actual.NumRows(), expected.NumRows());
  EXPECT_EQ(actual.row_ptr, expected.row_ptr);
  EXPECT_EQ(actual.index, expected.index);
  EXPECT_TRUE(SameFloats(actual.value, expected.value)) << "values differ";
  EXPECT_TRUE(SameFloats(actual.label, expected.label)) << "labels differ";
  EXPECT_TRUE(SameFloats(actual.weight, expected.weight)) << "weights differ";
  EXPECT_EQ(actual.qid, expected.qid);
  EXPECT_EQ(actual.num_col, expected.num_col);
}

}  // namespace treering::data::testing
